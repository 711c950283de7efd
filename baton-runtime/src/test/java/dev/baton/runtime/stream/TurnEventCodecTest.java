package dev.baton.runtime.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.turn.TurnEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnEventCodecTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Test
    void every_kind_of_event_reads_back_as_it_was() {
        TurnEvent.Usage usage = new TurnEvent.Usage(120, 30, 100, new BigDecimal("0.001250"));
        TurnEvent.ApprovalRequired held = new TurnEvent.ApprovalRequired(
                "ap-1",
                "call_1",
                "delete_task",
                JSON.objectNode().put("id", 7),
                "destructive",
                Instant.parse("2026-11-28T21:00:00.123456789Z"),
                "Delete the task 'buy milk'");
        List<TurnEvent> events = List.of(
                new TurnEvent.Started("turn-1", "s-1", "req-1"),
                new TurnEvent.Started("turn-1", "s-1", "req-2", "Let me look. "),
                new TurnEvent.Chunk("héllo ✓ \"quoted\"\n"),
                new TurnEvent.Thinking("hmm"),
                new TurnEvent.ToolCallStarted(
                        "call_1", "add_task", JSON.objectNode().put("title", "x")),
                new TurnEvent.ToolCallStarted("call_2", "add_task", JSON.textNode("{not json")),
                new TurnEvent.ToolCallFinished(
                        "call_1", "add_task", true, JSON.objectNode().put("id", 1), null, 12),
                new TurnEvent.ToolCallFinished("call_2", "add_task", false, null, "invalid arguments", 0),
                new TurnEvent.Blocked("I can't help with that."),
                held,
                new TurnEvent.ApprovalRequired(
                        "ap-2", "call_2", "list_tasks", JSON.objectNode(), "always", Instant.EPOCH, null),
                new TurnEvent.AwaitingApproval("turn-1", List.of(held), "sim:tasks", usage, 40, List.of("add_task")),
                new TurnEvent.Done("m-1", "sim:tasks", usage, 55, List.of("add_task"), TurnEvent.Done.MAX_ITERATIONS),
                new TurnEvent.Done("m-2", null, usage, 5, List.of()),
                new TurnEvent.Failed("model_unavailable", "down", true, Duration.ofMillis(1500)),
                new TurnEvent.Failed("cancelled", "stopped", false));
        for (TurnEvent event : events) {
            String type = TurnEventCodec.type(event);
            assertThat(TurnEventCodec.decode(type, TurnEventCodec.encode(event)))
                    .as(type)
                    .isEqualTo(event);
        }
    }

    @Test
    void an_approval_event_stored_before_summaries_existed_reads_with_none() {
        String stored = "{\"callId\":\"ap-1\",\"toolCallId\":\"call_1\",\"name\":\"delete_task\","
                + "\"arguments\":{\"taskId\":\"t1\"},\"reason\":\"destructive\",\"expiresAt\":\"2026-11-28T21:00:00Z\"}";

        assertThat(TurnEventCodec.decode("approval_required", stored))
                .isEqualTo(new TurnEvent.ApprovalRequired(
                        "ap-1",
                        "call_1",
                        "delete_task",
                        JSON.objectNode().put("taskId", "t1"),
                        "destructive",
                        Instant.parse("2026-11-28T21:00:00Z"),
                        null));
        assertThat(TurnEventCodec.decode(
                        "awaiting_approval",
                        "{\"turnId\":\"turn-1\",\"pending\":[" + stored + "],\"model\":\"m\",\"usage\":"
                                + "{\"inputTokens\":1,\"outputTokens\":1,\"cachedInputTokens\":0,\"costUsd\":0},"
                                + "\"latencyMs\":3,\"toolsCalled\":[]}"))
                .isInstanceOfSatisfying(
                        TurnEvent.AwaitingApproval.class,
                        a -> assertThat(a.pending().getFirst().summary()).isNull());
    }

    @Test
    void an_unknown_type_is_refused_and_an_unknown_field_ignored() {
        assertThatThrownBy(() -> TurnEventCodec.decode("telepathy", "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThat(TurnEventCodec.decode("chunk", "{\"content\":\"a\",\"addedLater\":1}"))
                .isEqualTo(new TurnEvent.Chunk("a"));
    }
}
