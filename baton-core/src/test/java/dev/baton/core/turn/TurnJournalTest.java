package dev.baton.core.turn;

import static dev.baton.core.testing.ScriptedModel.call;
import static dev.baton.core.testing.ScriptedModel.text;
import static dev.baton.core.testing.ScriptedModel.toolCalls;
import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.principal;
import static dev.baton.core.testing.TestTools.source;
import static dev.baton.core.testing.TestTools.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.testing.ScriptedModel;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A leased turn ({@link TurnRunner#withJournal}): its steps and its answer are written under its fence, and a turn
 * whose lease another instance took writes nothing more.
 */
class TurnJournalTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String USER = "user-1";
    private static final String SESSION = "session-1";
    private static final CostCalculator COSTS = (provider, model, usage) -> new BigDecimal("0.0001");
    private static final TokenCounter WORDS = text -> text.split("\\s+").length;
    private static final TurnLimits LIMITS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));
    private static final TurnFence FENCE = new TurnFence("turn-x", 3);

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final AtomicInteger executions = new AtomicInteger();
    private final List<String> steps = new CopyOnWriteArrayList<>();
    private final List<TurnFence> answersFenced = new CopyOnWriteArrayList<>();
    private final List<TurnFence> closed = new CopyOnWriteArrayList<>();
    private final AtomicBoolean leaseLost = new AtomicBoolean();
    private final Tool addTask = tool(
            "add_task", objectSchema("{\"title\":{\"type\":\"string\"}}", "title"), Set.of(), null, (args, ctx) -> {
                executions.incrementAndGet();
                return json("{\"ok\":true}");
            });

    private final TurnJournal journal = new TurnJournal() {
        @Override
        public TurnFence open(TurnRequest request, TurnState start) {
            steps.add("open:" + start.iteration() + ":" + start.messages().size());
            return FENCE;
        }

        @Override
        public void close(TurnFence fence) {
            closed.add(fence);
        }
    };

    TurnJournalTest() {
        store.createSession(Session.start(SESSION, "default", USER, "helper", null, NOW));
    }

    @Test
    void every_step_is_written_with_the_state_after_it_and_the_answer_ends_the_lease() {
        TurnOutcome outcome =
                run(ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")));

        assertThat(outcome.succeeded()).isTrue();
        // leased with the user message before the context (none yet), the context as the first checkpoint, before
        // the tools run (their outcome unknown if the instance dies), then with the tool's row
        assertThat(steps)
                .containsExactly(
                        "open:0:0",
                        "step:0 calls, iteration 0, pending []",
                        "step:0 calls, iteration 1, pending [add_task]",
                        "step:1 calls, iteration 1, pending []");
        assertThat(answersFenced).containsExactly(FENCE);
        assertThat(closed).isEmpty();
        assertThat(executions).hasValue(1);
    }

    @Test
    void a_turn_whose_lease_was_taken_over_stops_without_storing_an_answer_or_usage() {
        leaseLost.set(true);

        TurnOutcome outcome =
                run(ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\":\"a\"}")), text("Done.")));

        assertThat(outcome.failure())
                .hasValueSatisfying(f -> assertThat(f.code()).isEqualTo("turn_taken_over"));
        assertThat(store.listMessages(USER, SESSION, null, 50))
                .extracting(m -> m.role())
                .containsExactly(MessageRole.USER);
        assertThat(store.usageRows(SESSION)).isEmpty();
        assertThat(store.toolCallRows(SESSION)).isEmpty();
        assertThat(executions)
                .as("the tools did not run: the write before them was refused")
                .hasValue(0);
    }

    @Test
    void a_turn_taken_over_before_its_context_was_stored_builds_it_from_its_stored_message_and_answers_it_once() {
        Session session = store.findSession(USER, SESSION).orElseThrow();
        Message asked = store.appendUserMessage(
                new Message("m-1", SESSION, USER, 0, MessageRole.USER, "add a", MessageStatus.COMPLETE, null, NOW));
        TurnState leasedWithMessage = TurnState.start("turn-x", SESSION, asked.id(), null, List.of());
        ScriptedModel model = ScriptedModel.of(text("Done."));

        TurnOutcome outcome = run(
                model,
                new TurnRequest(
                                "req-1",
                                principal(),
                                session,
                                agent(List.of("add_task"), LIMITS),
                                "",
                                new Cancellation())
                        .resuming(new TurnResume(leasedWithMessage, List.of(), FENCE)));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(store.listMessages(USER, SESSION, null, 50))
                .extracting(Message::role, Message::content)
                .containsExactly(tuple(MessageRole.USER, "add a"), tuple(MessageRole.ASSISTANT, "Done."));
        assertThat(model.requests().getFirst().messages().getLast())
                .as("the stored message is the one the model answers")
                .isEqualTo(new ChatMessage.User("add a"));
        // no second lease: the context is the first checkpoint under the taker's fence, which the answer ends
        assertThat(steps).containsExactly("step:0 calls, iteration 0, pending []");
        assertThat(answersFenced).containsExactly(FENCE);
    }

    private TurnOutcome run(ScriptedModel model) {
        Session session = store.findSession(USER, SESSION).orElseThrow();
        return run(
                model,
                new TurnRequest(
                        "req-1",
                        principal(),
                        session,
                        agent(List.of("add_task"), LIMITS),
                        "add a",
                        new Cancellation()));
    }

    private TurnOutcome run(ScriptedModel model, TurnRequest request) {
        TurnRunner runner = new TurnRunner(
                        fencing(),
                        model,
                        new ToolCatalog(List.of(source(addTask))),
                        WORDS,
                        COSTS,
                        CLOCK,
                        ModulePipeline.none(CLOCK))
                .withJournal(journal);
        return runner.run(request, e -> {});
    }

    /** The in-memory store, with the fence checks a database makes: refused once {@link #leaseLost}. */
    @SuppressWarnings("unchecked")
    private ConversationStore fencing() {
        return (ConversationStore) Proxy.newProxyInstance(
                ConversationStore.class.getClassLoader(), new Class<?>[] {ConversationStore.class}, (p, m, args) -> {
                    if (m.getName().equals("recordStep")) {
                        TurnFence fence = (TurnFence) args[2];
                        if (leaseLost.get()) throw new TurnFencedException(fence);
                        TurnState state = TurnStateCodec.decode((String) args[3]);
                        steps.add("step:" + ((List<ToolCallRecord>) args[1]).size() + " calls, iteration "
                                + state.iteration() + ", pending "
                                + state.pendingToolCalls().stream()
                                        .map(c -> c.name())
                                        .toList());
                    }
                    if (m.getName().equals("completeTurn")) {
                        TurnRecord record = (TurnRecord) args[1];
                        if (leaseLost.get()) throw new TurnFencedException(record.fence());
                        answersFenced.add(record.fence());
                    }
                    try {
                        return m.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
