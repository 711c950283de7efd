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
import static org.awaitility.Awaitility.await;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.hook.ModulePipeline;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A new turn asks the model while its user message is being stored, and uses nothing of that call — no text shown,
 * no tool run, nothing stored — until the message is stored; a leased turn stores its message (and lease) first.
 */
class AskedWhileStoredTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String USER = "user-1";
    private static final String SESSION = "session-1";
    private static final CostCalculator COSTS = (provider, model, usage) -> BigDecimal.ZERO;
    private static final TurnLimits LIMITS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    /** What happened, in order, across the turn's threads. */
    private final List<String> order = new CopyOnWriteArrayList<>();

    private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch writeMayFinish = new CountDownLatch(1);

    private final Tool addTask = tool(
            "add_task",
            objectSchema("{\"title\":{\"type\":\"string\",\"minLength\":1}}", "title"),
            Set.of("tasks:write:self"),
            null,
            (args, ctx) -> {
                order.add("tool ran");
                return json("{\"task\":{\"title\":" + args.get("title") + "}}");
            });

    AskedWhileStoredTest() {
        store.createSession(Session.start(SESSION, "default", USER, "helper", null, NOW));
    }

    @Test
    void the_model_is_asked_while_the_message_is_stored_and_nothing_of_its_reply_is_used_before() throws Exception {
        ScriptedModel model = ScriptedModel.of(
                asked(toolCalls(call("c1", "add_task", "{\"title\":\"buy milk\"}"))), asked(text("Added.")));
        TurnRunner runner = runner(store(), model);

        AtomicReference<TurnOutcome> outcome = new AtomicReference<>();
        Thread turn = Thread.ofVirtual().start(() -> outcome.set(runner.run(request(), events::add)));

        // the model has its request while the write is held back; the turn waits for the write before using it
        await().atMost(Duration.ofSeconds(30)).until(() -> order.contains("model asked"));
        await().atMost(Duration.ofSeconds(30)).until(() -> turn.getState() == Thread.State.WAITING || !turn.isAlive());
        assertThat(turn.isAlive())
                .as("the turn waits for its user message's write")
                .isTrue();
        assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly("Started");
        assertThat(order).containsExactly("model asked");
        assertThat(store.listMessages(USER, SESSION, null, 10)).isEmpty();

        writeMayFinish.countDown();
        assertThat(turn.join(Duration.ofSeconds(30))).isTrue();

        assertThat(order).containsExactly("model asked", "user message stored", "tool ran", "model asked");
        assertThat(outcome.get().succeeded()).isTrue();
        List<Message> stored = store.listMessages(USER, SESSION, null, 10);
        assertThat(stored).extracting(Message::role).containsExactly(MessageRole.USER, MessageRole.ASSISTANT);
        // the outcome carries the message as stored (its seq given by the store), not the one the model was sent
        assertThat(outcome.get().userMessage()).isEqualTo(stored.getFirst());
        assertThat(outcome.get().userMessage().seq()).isEqualTo(1);
        assertThat(events)
                .extracting(e -> e.getClass().getSimpleName())
                .containsSubsequence("Started", "ToolCallStarted", "ToolCallFinished", "Chunk", "Done");
    }

    @Test
    void a_leased_turn_stores_its_message_before_the_model_is_asked() {
        writeMayFinish.countDown();
        ScriptedModel model = ScriptedModel.of(asked(text("Hello.")));
        TurnJournal leases = new TurnJournal() {
            @Override
            public TurnFence open(TurnRequest request, TurnState start) {
                order.add("leased");
                return null;
            }

            @Override
            public void close(TurnFence fence) {}
        };

        TurnOutcome outcome = runner(store(), model).withJournal(leases).run(request(), events::add);

        assertThat(outcome.succeeded()).isTrue();
        assertThat(order).containsExactly("user message stored", "leased", "model asked");
    }

    private ScriptedModel.Step asked(ScriptedModel.Step step) {
        return (request, onDelta) -> {
            order.add("model asked");
            return step.answer(request, onDelta);
        };
    }

    private TurnRunner runner(ConversationStore conversations, ScriptedModel model) {
        return new TurnRunner(
                conversations,
                model,
                new ToolCatalog(List.of(source(addTask))),
                text -> text.split("\\s+").length,
                COSTS,
                CLOCK,
                ModulePipeline.none(CLOCK));
    }

    private TurnRequest request() {
        return new TurnRequest(
                "req-1",
                principal("tasks:write:self"),
                store.findSession(USER, SESSION).orElseThrow(),
                agent(List.of("add_task"), LIMITS),
                "add buy milk",
                new Cancellation());
    }

    /** The in-memory store, whose user message append waits for {@link #writeMayFinish} and is then noted. */
    private ConversationStore store() {
        return (ConversationStore) Proxy.newProxyInstance(
                ConversationStore.class.getClassLoader(),
                new Class<?>[] {ConversationStore.class},
                (p, method, args) -> {
                    boolean append = method.getName().startsWith("appendUserMessage");
                    if (append && !writeMayFinish.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never let the write finish");
                    }
                    try {
                        Object result = method.invoke(store, args);
                        if (append) order.add("user message stored");
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
