package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import dev.baton.testkit.time.SettableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A tool source behind its breaker, driven through the real tool executor as a turn would call it. */
class BreakerToolSourceTest {
    static final ObjectMapper JSON = new ObjectMapper();

    enum Behaviour {
        ANSWER,
        CRASH,
        REFUSE,
        HANG
    }

    final SettableClock clock = new SettableClock(Instant.parse("2025-03-01T10:00:00Z"));
    final AtomicReference<Behaviour> behaviour = new AtomicReference<>(Behaviour.ANSWER);
    final AtomicInteger invocations = new AtomicInteger();
    final BreakerToolSource source = new BreakerToolSource(new FlakySource(), BreakerSettings.TOOL_DEFAULTS, clock);
    final ToolExecutor executor = new ToolExecutor(new ToolCatalog(List.of(source)), clock);
    final AgentDefinition agent = new AgentDefinition(
            "a",
            "A",
            "",
            "prompt",
            "simulator:default",
            List.of("lookup"),
            List.of(),
            null,
            List.of(),
            null,
            null,
            null,
            null,
            null);
    final Principal user = new Principal("u1", null, null, null, Set.of(), Set.of(), List.of());
    int calls;

    ToolCallOutcome call(Duration timeout) {
        var request = new ToolCallRequest("call_" + calls, "lookup", "{\"n\":" + calls++ + "}");
        var scope = new ToolCallScope(agent, user, "s1", timeout, new Cancellation());
        return executor.execute(List.of(request), scope, new CallCache()).getFirst();
    }

    ToolCallOutcome call() {
        return call(Duration.ofSeconds(5));
    }

    @Test
    void five_unexpected_failures_open_the_breaker_and_the_next_call_fails_fast_with_tool_unavailable() {
        behaviour.set(Behaviour.CRASH);
        for (int i = 0; i < 5; i++) {
            assertThat(call().error().code()).isEqualTo("tool_failed");
        }
        assertThat(source.breaker().state()).isEqualTo(State.OPEN);
        behaviour.set(Behaviour.ANSWER);

        ToolCallOutcome fast = call();

        assertThat(fast.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(fast.error().code()).isEqualTo("tool_unavailable");
        assertThat(fast.error().message()).contains("lookup", "30 s");
        assertThat(invocations).as("the tool was not run").hasValue(5);
    }

    @Test
    void domain_refusals_never_open_the_breaker() {
        behaviour.set(Behaviour.REFUSE);
        for (int i = 0; i < 10; i++) {
            assertThat(call().error().code()).isEqualTo("not_found");
        }

        assertThat(source.breaker().state()).isEqualTo(State.CLOSED);
        assertThat(invocations).hasValue(10);
    }

    @Test
    void calls_that_run_past_their_timeout_count_as_failures() {
        behaviour.set(Behaviour.HANG);
        for (int i = 0; i < 5; i++) {
            assertThat(call(Duration.ofMillis(50)).state()).isEqualTo(ToolCallState.TIMED_OUT);
        }

        // the executor answers the model at the deadline; the abandoned call reports to the breaker moments later
        await().atMost(Duration.ofSeconds(5)).until(() -> source.breaker().state() == State.OPEN);
        assertThat(call().error().code()).isEqualTo("tool_unavailable");
    }

    @Test
    void after_the_open_time_a_successful_probe_closes_the_breaker() {
        behaviour.set(Behaviour.CRASH);
        for (int i = 0; i < 5; i++) {
            call();
        }
        clock.advance(Duration.ofSeconds(29));
        assertThat(call().error().code()).isEqualTo("tool_unavailable");

        clock.advance(Duration.ofSeconds(2));
        behaviour.set(Behaviour.ANSWER);
        ToolCallOutcome probe = call();

        assertThat(probe.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(probe.result().path("ok").asBoolean()).isTrue();
        assertThat(source.breaker().state()).isEqualTo(State.CLOSED);
    }

    @Test
    void the_source_keeps_its_name_and_its_tools_definitions() {
        assertThat(source.name()).isEqualTo("flaky");
        assertThat(source.tools()).extracting(t -> t.definition().name()).containsExactly("lookup");
    }

    @Test
    void the_breaker_keeps_its_sources_allow_list_selectors() {
        ToolDefinition lookup = source.tools().getFirst().definition();

        assertThat(source.admits("flaky/*", lookup)).isTrue();
        assertThat(source.admits("other/*", lookup)).isFalse();
    }

    private final class FlakySource implements ToolSource {
        @Override
        public String name() {
            return "flaky";
        }

        @Override
        public boolean admits(String entry, ToolDefinition tool) {
            return entry.equals("flaky/*");
        }

        @Override
        public List<Tool> tools() {
            return List.of(new Tool() {
                @Override
                public ToolDefinition definition() {
                    JsonNode schema = JSON.createObjectNode().put("type", "object");
                    return new ToolDefinition("lookup", "Looks something up.", schema, Set.of(), null);
                }

                @Override
                public JsonNode execute(JsonNode arguments, ToolContext context) {
                    invocations.incrementAndGet();
                    return switch (behaviour.get()) {
                        case ANSWER -> JsonNodeFactory.instance.objectNode().put("ok", true);
                        case CRASH -> throw new IllegalStateException("backend down");
                        case REFUSE -> throw new ToolException("not_found", "no such thing");
                        case HANG -> {
                            try {
                                Thread.sleep(Duration.ofSeconds(30));
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            throw new IllegalStateException("interrupted");
                        }
                    };
                }
            });
        }
    }
}
