package dev.baton.core.turn;

import static dev.baton.core.testing.ScriptedModel.call;
import static dev.baton.core.testing.ScriptedModel.text;
import static dev.baton.core.testing.ScriptedModel.toolCalls;
import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.principal;
import static dev.baton.core.testing.TestTools.source;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.StepRecord;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.testing.ScriptedModel;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Transactional tools: each call's work runs inside the store's step transaction
 * ({@link ConversationStore#recordStepWith}), which writes the call with, in a leased turn, the turn's state after it;
 * the step's own write then records only the other calls.
 */
class TransactionalStepTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String USER = "user-1";
    private static final String SESSION = "session-1";
    private static final CostCalculator COSTS = (provider, model, usage) -> new BigDecimal("0.0001");
    private static final TokenCounter WORDS = text -> text.split("\\s+").length;
    private static final TurnLimits LIMITS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));
    private static final TurnFence FENCE = new TurnFence("turn-x", 1);

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    /** What each step transaction kept: its calls' names and the calls its checkpoint no longer has pending. */
    private final List<String> kept = new CopyOnWriteArrayList<>();
    /** The calls each plain step write inserted. */
    private final List<List<String>> stepInserts = new CopyOnWriteArrayList<>();
    /** Tool names whose work ran inside a step transaction. */
    private final List<String> ranInside = new CopyOnWriteArrayList<>();

    private final AtomicInteger added = new AtomicInteger();

    TransactionalStepTest() {
        store.createSession(Session.start(SESSION, "default", USER, "helper", null, NOW));
    }

    @Test
    void a_transactional_call_commits_with_its_row_and_a_checkpoint_holding_its_result_and_is_recorded_once() {
        TurnOutcome outcome = run(
                leased(FENCE),
                ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")),
                transactional("add_task", (args, ctx) -> {
                    added.incrementAndGet();
                    return json("{\"ok\":true}");
                }));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(kept).containsExactly("[add_task] answered [add_task]");
        // the context and the model call (nothing to insert); the step's own write is left out: its one call was
        // written with its effect, under the checkpoint the step would have written again
        assertThat(stepInserts).containsExactly(List.of(), List.of());
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(ToolCallState.SUCCEEDED));
        assertThat(added).hasValue(1);
    }

    @Test
    void each_checkpoint_of_a_step_holds_the_results_committed_before_it() {
        run(
                leased(FENCE),
                ScriptedModel.of(
                        toolCalls(
                                call("c1", "add_task", "{\"title\":\"a\"}"),
                                call("c2", "add_task", "{\"title\":\"b\"}")),
                        text("Done.")),
                transactional("add_task", (args, ctx) -> json("{\"ok\":true}")));

        assertThat(kept).hasSize(2);
        assertThat(kept.get(0)).endsWith("answered [add_task]");
        assertThat(kept.get(1)).isEqualTo("[add_task] answered [add_task, add_task]");
        assertThat(store.toolCallRows(SESSION)).hasSize(2);
    }

    @Test
    void a_failed_transactional_call_keeps_nothing_in_its_transaction_and_is_recorded_with_the_step() {
        run(
                leased(FENCE),
                ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")),
                transactional("add_task", (args, ctx) -> {
                    throw new ToolException("duplicate", "That task exists.");
                }));

        assertThat(ranInside).containsExactly("add_task");
        assertThat(kept).containsExactly("nothing");
        assertThat(stepInserts).contains(List.of("add_task"));
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(ToolCallState.FAILED));
    }

    @Test
    void a_transactional_call_that_finishes_after_its_timeout_keeps_nothing_and_is_recorded_as_timed_out()
            throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Tool slow = new Tool() {
            // long enough that the tool's thread reaches its commit before the timeout even on a loaded machine: a
            // timeout that comes first interrupts it before it runs, and then (rightly) nothing runs at all
            private final ToolDefinition def = transactionalDefinition("add_task", Duration.ofSeconds(1));

            @Override
            public ToolDefinition definition() {
                return def;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                // ignores the interrupt: it succeeds, but after the turn gave up on it
                boolean interrupted = false;
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) Thread.currentThread().interrupt();
                added.incrementAndGet();
                return json("{\"ok\":true}");
            }
        };

        TurnOutcome outcome = run(
                leased(FENCE),
                ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")),
                slow);
        release.countDown();

        assertThat(outcome.succeeded()).isTrue();
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(ToolCallState.TIMED_OUT));
        await().atMost(Duration.ofSeconds(10)).until(() -> kept.size() == 1);
        assertThat(kept).containsExactly("nothing");
        assertThat(added).hasValue(1);
    }

    @Test
    void a_turn_that_is_not_leased_commits_its_transactional_call_with_its_row_and_no_checkpoint() {
        TurnOutcome outcome = run(
                TurnJournal.NONE,
                ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")),
                transactional("add_task", (args, ctx) -> {
                    added.incrementAndGet();
                    return json("{\"ok\":true}");
                }));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(ranInside).containsExactly("add_task");
        assertThat(kept).containsExactly("[add_task] without a checkpoint");
        assertThat(added).hasValue(1);
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(ToolCallState.SUCCEEDED));
    }

    @Test
    void a_failed_transactional_call_of_a_turn_that_is_not_leased_is_recorded_once_with_the_step() {
        run(
                TurnJournal.NONE,
                ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")),
                transactional("add_task", (args, ctx) -> {
                    throw new ToolException("duplicate", "That task exists.");
                }));

        assertThat(kept).containsExactly("nothing");
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(ToolCallState.FAILED));
    }

    private TurnOutcome run(TurnJournal journal, ScriptedModel model, Tool tool) {
        TurnRunner runner = new TurnRunner(
                        observed(),
                        model,
                        new ToolCatalog(List.of(source(tool))),
                        WORDS,
                        COSTS,
                        CLOCK,
                        ModulePipeline.none(CLOCK))
                .withJournal(journal);
        Session session = store.findSession(USER, SESSION).orElseThrow();
        return runner.run(
                new TurnRequest(
                        "req-1", principal(), session, agent(List.of("add_task"), LIMITS), "add a", new Cancellation()),
                e -> {});
    }

    private static TurnJournal leased(TurnFence fence) {
        return new TurnJournal() {
            @Override
            public TurnFence open(TurnRequest request, TurnState start) {
                return fence;
            }

            @Override
            public void close(TurnFence f) {}
        };
    }

    private static ToolDefinition transactionalDefinition(String name, Duration timeout) {
        return new ToolDefinition(
                name,
                "Test tool " + name,
                objectSchema("{\"title\":{\"type\":\"string\"}}", "title"),
                Set.of(),
                timeout,
                false,
                Set.of(),
                false,
                true);
    }

    private static Tool transactional(String name, BiFunction<JsonNode, ToolContext, JsonNode> body) {
        ToolDefinition def = transactionalDefinition(name, null);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return def;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                return body.apply(arguments, context);
            }
        };
    }

    /** The in-memory store, with each step transaction's work run and what it kept noted. */
    @SuppressWarnings("unchecked")
    private ConversationStore observed() {
        return (ConversationStore) Proxy.newProxyInstance(
                ConversationStore.class.getClassLoader(), new Class<?>[] {ConversationStore.class}, (p, m, args) -> {
                    if (m.getName().equals("recordStepWith")) {
                        StepRecord step = ((Supplier<StepRecord>) args[2]).get();
                        ranInside.add("add_task");
                        if (step == null) {
                            kept.add("nothing");
                            return null;
                        }
                        if (step.state() == null) {
                            kept.add(step.calls().stream()
                                            .map(ToolCallRecord::toolName)
                                            .toList() + " without a checkpoint");
                            store.recordToolCalls(USER, step.calls());
                            return null;
                        }
                        TurnState state = TurnStateCodec.decode(step.state());
                        kept.add(step.calls().stream()
                                        .map(ToolCallRecord::toolName)
                                        .toList() + " answered "
                                + state.toolCalls().stream()
                                        .map(c -> c.outcome().request().name())
                                        .toList());
                        store.recordToolCalls(USER, step.calls());
                        return null;
                    }
                    if (m.getName().equals("recordStep")) {
                        stepInserts.add(((List<ToolCallRecord>) args[1])
                                .stream().map(ToolCallRecord::toolName).toList());
                    }
                    try {
                        return m.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
