package dev.baton.core.turn;

import static dev.baton.core.testing.TestTools.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.ToolJson;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnStateCodecTest {
    private static final Instant T0 = Instant.parse("2026-01-15T09:30:00.123456789Z");

    private static final ToolCallRequest ADD =
            new ToolCallRequest("call_1", "add_task", "{\"title\":\"Milch 🥛\",\"tags\":[\"a\",\"b\"],\"n\":3}");
    private static final ToolCallRequest BROKEN = new ToolCallRequest("call_2", "add_task", "{\"title\": ");
    private static final ToolCallRequest SILENT = new ToolCallRequest("call_3", "ping", "{}");
    private static final ToolError INVALID = new ToolError("invalid_arguments", "arguments are not valid JSON: eof");

    /** A state with every kind of message, outcome, usage, cache entry and filter state. */
    static TurnState richState() {
        JsonNode added = json("{\"task\":{\"title\":\"Milch 🥛\",\"id\":42,\"done\":false,\"score\":1.5,\"tags\":[]}}");
        ToolCallOutcome ok = ToolCallOutcome.succeeded(ADD, added, T0, T0.plusMillis(12));
        ToolCallOutcome refused = ToolCallOutcome.rejected(BROKEN, ToolCallState.INVALID_ARGUMENTS, INVALID, T0);
        ToolCallOutcome nothing = ToolCallOutcome.succeeded(SILENT, NullNode.getInstance(), T0, T0);
        List<ChatMessage> messages = List.of(
                new ChatMessage.System("## Core Behavior\nBe kind — 日本語もOK ✓\n\n\"quoted\" \\ backslash"),
                new ChatMessage.User("Füge „Milch“ hinzu 🥛"),
                new ChatMessage.Assistant("Einen Moment…", List.of(ADD, BROKEN, SILENT)),
                ok.toMessage(),
                refused.toMessage(),
                nothing.toMessage(),
                new ChatMessage.Assistant("Erledigt.", List.of()));
        UsageRecord first = new UsageRecord(
                "usage-1",
                "tenant-1",
                "user-1",
                "session-1",
                null,
                "openai",
                "gpt-4o-mini",
                1200,
                80,
                1024,
                new BigDecimal("0.000123450"),
                850,
                T0);
        UsageRecord second = new UsageRecord(
                "usage-2",
                null,
                "user-1",
                "session-1",
                null,
                null,
                "gpt-4o-mini",
                1400,
                20,
                0,
                new BigDecimal("12.5000"),
                430,
                T0.plusSeconds(2));
        OutputFilterChain.State filters = new OutputFilterChain.State(
                List.of(
                        new OutputFilterChain.StageState(
                                "pii-redaction",
                                "Einen Moment…Erledigt. alice@example.com",
                                false,
                                json("{\"pending\":\"\",\"matched\":[\"email\"]}")),
                        new OutputFilterChain.StageState("shouting", "Einen Moment…", true, null),
                        new OutputFilterChain.StageState("counter", "", false, null)),
                null,
                null,
                "");
        return new TurnState(
                "turn-1",
                "session-1",
                "message-1",
                T0.plusSeconds(45),
                2,
                messages,
                "Einen Moment…\n\nErledigt. [EMAIL]",
                "gpt-4o-mini-2024-07-18",
                List.of(
                        new TurnState.ToolCall("row-1", ok),
                        new TurnState.ToolCall("row-2", refused),
                        new TurnState.ToolCall("row-3", nothing)),
                List.of(first, second),
                List.of(
                        new CallCache.Entry(
                                "add_task",
                                ToolJson.canonical(json(ADD.argumentsJson())),
                                ToolCallState.SUCCEEDED,
                                added,
                                null),
                        new CallCache.Entry("notes", "{}", ToolCallState.FAILED, null, new ToolError("x", "y"))),
                filters);
    }

    @Test
    void a_state_with_every_kind_of_content_comes_back_equal() {
        TurnState state = richState();

        TurnState decoded = TurnStateCodec.decode(TurnStateCodec.encode(state));

        assertThat(decoded).isEqualTo(state);
    }

    @Test
    void a_new_turns_state_without_deadline_model_or_filters_comes_back_equal() {
        TurnState state = TurnState.start(
                "turn-2",
                "session-1",
                "message-2",
                null,
                List.of(new ChatMessage.System("s"), new ChatMessage.User("")));

        TurnState decoded = TurnStateCodec.decode(TurnStateCodec.encode(state));

        assertThat(decoded).isEqualTo(state);
        assertThat(decoded.deadline()).isNull();
        assertThat(decoded.model()).isNull();
        assertThat(decoded.filters()).isEqualTo(OutputFilterChain.State.EMPTY);
    }

    @Test
    void costs_keep_their_scale_and_instants_their_nanoseconds() {
        TurnState decoded = TurnStateCodec.decode(TurnStateCodec.encode(richState()));

        assertThat(decoded.usage())
                .extracting(u -> u.costUsd().toPlainString())
                .containsExactly("0.000123450", "12.5000");
        assertThat(decoded.usage().getFirst().createdAt()).isEqualTo(T0);
        assertThat(decoded.deadline().getNano()).isEqualTo(123_456_789);
    }

    @Test
    void tool_call_arguments_stay_the_models_raw_text_even_when_not_valid_json() {
        String encoded = TurnStateCodec.encode(richState());

        TurnState decoded = TurnStateCodec.decode(encoded);

        assertThat(decoded.toolCalls())
                .extracting(c -> c.outcome().request().argumentsJson())
                .containsExactly(ADD.argumentsJson(), "{\"title\": ", "{}");
        assertThat(decoded.pendingToolCalls()).isEmpty();
        JsonNode tree = json(encoded);
        assertThat(tree.get("version").asInt()).isEqualTo(TurnStateCodec.VERSION);
        assertThat(tree.at("/messages/2/toolCalls/0/arguments").isTextual()).isTrue();
    }

    @Test
    void a_tool_result_that_is_json_null_is_not_mistaken_for_a_missing_one() {
        TurnState decoded = TurnStateCodec.decode(TurnStateCodec.encode(richState()));

        ToolCallOutcome silent = decoded.toolCalls().get(2).outcome();
        assertThat(silent.ok()).isTrue();
        assertThat(silent.result()).isEqualTo(NullNode.getInstance());
    }

    @Test
    void text_that_is_not_a_turn_state_of_a_known_version_is_refused() {
        String encoded = TurnStateCodec.encode(richState());

        assertThatThrownBy(() -> TurnStateCodec.decode(encoded.replace("\"version\":1", "\"version\":99")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version");
        assertThatThrownBy(() -> TurnStateCodec.decode("{not json")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TurnStateCodec.decode("{\"version\":1,\"turnId\":\"t\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionId");
        assertThatThrownBy(() -> TurnStateCodec.decode(encoded.replace("\"role\":\"user\"", "\"role\":\"robot\"")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("robot");
    }
}
