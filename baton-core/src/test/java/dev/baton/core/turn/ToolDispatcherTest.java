package dev.baton.core.turn;

import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.principal;
import static dev.baton.core.testing.TestTools.source;
import static dev.baton.core.testing.TestTools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ConnectRequiredException;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.ToolExecutor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ToolDispatcherTest {
    private final AtomicInteger executions = new AtomicInteger();
    private final Tool echo =
            tool("echo", objectSchema("{\"n\":{\"type\":\"integer\"}}", "n"), Set.of(), null, (args, ctx) -> {
                executions.incrementAndGet();
                if (args.get("n").asInt() == 99)
                    throw new ConnectRequiredException(
                            new ToolError.AccountConnect("notes", "/v1/mcp/servers/notes/connect"));
                return json("{\"n\":" + args.get("n") + "}");
            });
    private final List<TurnEvent> events = new ArrayList<>();

    private List<ToolCallOutcome> dispatch(
            int perTurn, int perConversation, int conversationSoFar, int turnSoFar, List<ToolCallRequest> calls) {
        TurnLimits limits = new TurnLimits(
                5,
                perTurn,
                perConversation,
                20,
                4000,
                128_000,
                Duration.ofSeconds(30),
                Duration.ofSeconds(5),
                Duration.ofSeconds(45));
        Session session = new Session(
                "session-1",
                "default",
                "user-1",
                "helper",
                null,
                SessionState.ACTIVE,
                Instant.now(),
                null,
                null,
                3,
                conversationSoFar);
        TurnRequest request = new TurnRequest(
                "req-1", principal(), session, agent(List.of("echo"), limits), "hi", new Cancellation());
        ToolExecutor executor = new ToolExecutor(new ToolCatalog(List.of(source(echo))), Clock.systemUTC());
        return new ToolDispatcher(executor, Clock.systemUTC())
                .dispatch(calls, request, turnSoFar, Duration.ofSeconds(5), new CallCache(), events::add);
    }

    private static List<ToolCallRequest> calls(int count) {
        List<ToolCallRequest> calls = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            calls.add(new ToolCallRequest("c" + i, "echo", "{\"n\":" + i + "}"));
        }
        return calls;
    }

    @Test
    void a_call_that_needs_the_users_account_is_announced_just_before_its_finish_with_where_to_connect() {
        List<ToolCallOutcome> outcomes = dispatch(
                10,
                50,
                0,
                0,
                List.of(
                        new ToolCallRequest("c1", "echo", "{\"n\":1}"),
                        new ToolCallRequest("c2", "echo", "{\"n\":99}")));

        assertThat(outcomes.get(1).error().code()).isEqualTo("connect_required");
        assertThat(outcomes.get(1).error().connect())
                .isEqualTo(new ToolError.AccountConnect("notes", "/v1/mcp/servers/notes/connect"));
        assertThat(events.subList(2, events.size()))
                .extracting(e -> e.getClass().getSimpleName())
                .containsExactly("ToolCallFinished", "ConnectRequired", "ToolCallFinished");
        assertThat(events.get(3))
                .isEqualTo(new TurnEvent.ConnectRequired("c2", "notes", "/v1/mcp/servers/notes/connect"));
        TurnEvent.ToolCallFinished finished = (TurnEvent.ToolCallFinished) events.get(4);
        assertThat(finished.ok()).isFalse();
        assertThat(finished.error()).startsWith("connect_required: ").contains("connect their notes account");
        // a call that failed for any other reason carries no link
        assertThat(outcomes.get(0).ok()).isTrue();
    }

    @Test
    void emits_every_start_in_model_order_then_every_finish_in_model_order() {
        dispatch(10, 50, 0, 0, calls(3));

        assertThat(events)
                .extracting(e -> e.getClass().getSimpleName() + ":"
                        + switch (e) {
                            case TurnEvent.ToolCallStarted s -> s.id();
                            case TurnEvent.ToolCallFinished f -> f.id();
                            default -> "?";
                        })
                .containsExactly(
                        "ToolCallStarted:c1",
                        "ToolCallStarted:c2",
                        "ToolCallStarted:c3",
                        "ToolCallFinished:c1",
                        "ToolCallFinished:c2",
                        "ToolCallFinished:c3");
        TurnEvent.ToolCallFinished second = (TurnEvent.ToolCallFinished) events.get(4);
        assertThat(second.ok()).isTrue();
        assertThat(second.result().get("n").asInt()).isEqualTo(2);
    }

    @Test
    void calls_beyond_the_per_turn_limit_are_not_run_and_tell_the_model_why() {
        List<ToolCallOutcome> outcomes = dispatch(4, 50, 0, 2, calls(3));

        assertThat(executions).hasValue(2);
        assertThat(outcomes)
                .extracting(ToolCallOutcome::state)
                .containsExactly(ToolCallState.SUCCEEDED, ToolCallState.SUCCEEDED, ToolCallState.DENIED);
        assertThat(outcomes.get(2).error().code()).isEqualTo(ToolDispatcher.LIMIT_REACHED);
        assertThat(outcomes.get(2).toMessage().content()).contains("4 tool calls per turn");
    }

    @Test
    void calls_beyond_the_per_conversation_limit_are_not_run() {
        List<ToolCallOutcome> outcomes = dispatch(10, 50, 49, 0, calls(2));

        assertThat(executions).hasValue(1);
        assertThat(outcomes.get(1).state()).isEqualTo(ToolCallState.DENIED);
        assertThat(outcomes.get(1).error().message()).contains("50 tool calls per conversation");
    }

    @Test
    void the_tool_call_event_shows_unparseable_arguments_as_raw_text() {
        dispatch(10, 50, 0, 0, List.of(new ToolCallRequest("c1", "echo", "{not json")));

        TurnEvent.ToolCallStarted started = (TurnEvent.ToolCallStarted) events.getFirst();
        assertThat(started.arguments().isTextual()).isTrue();
        assertThat(started.arguments().asText()).isEqualTo("{not json");
        TurnEvent.ToolCallFinished finished = (TurnEvent.ToolCallFinished) events.get(1);
        assertThat(finished.ok()).isFalse();
        assertThat(finished.error()).startsWith("invalid_arguments:");
    }
}
