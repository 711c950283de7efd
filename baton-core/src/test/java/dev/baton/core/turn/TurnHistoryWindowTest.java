package dev.baton.core.turn;

import static dev.baton.core.testing.ScriptedModel.text;
import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.principal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.testing.ScriptedModel;
import dev.baton.core.tool.ToolCatalog;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A session's turns on one runner take their history from the runner's window of the session, and read it from the
 * store whenever a message they did not store came between: the model sees the same history either way.
 */
class TurnHistoryWindowTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String USER = "user-1";
    private static final String SESSION = "session-1";
    private static final CostCalculator COSTS = (provider, model, usage) -> BigDecimal.ZERO;
    private static final TurnLimits LIMITS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final AtomicInteger historyReads = new AtomicInteger();
    private final ScriptedModel model =
            ScriptedModel.of(text("Answer 1."), text("Answer 2."), text("Answer 3."), text("Answer 4."));
    private final TurnRunner runner = new TurnRunner(
            counted(store),
            model,
            new ToolCatalog(List.of()),
            text -> text.split("\\s+").length,
            COSTS,
            CLOCK,
            ModulePipeline.none(CLOCK));

    TurnHistoryWindowTest() {
        store.createSession(Session.start(SESSION, "default", USER, "helper", null, NOW));
    }

    @Test
    void a_sessions_turns_on_one_instance_do_not_read_its_history_again() {
        turn("first", session());
        turn("second", session());
        turn("third", session());

        assertThat(historyReads).hasValue(0);
        assertThat(lastContext())
                .containsExactly(
                        "user: first", "assistant: Answer 1.", "user: second", "assistant: Answer 2.", "user: third");
    }

    @Test
    void a_message_stored_by_another_instance_sends_the_next_turn_to_the_store() {
        turn("first", session());
        storeElsewhere("sent to another instance");

        turn("second", session());

        assertThat(historyReads).hasValue(1);
        assertThat(lastContext())
                .containsExactly(
                        "user: first", "assistant: Answer 1.", "user: sent to another instance", "user: second");
    }

    @Test
    void a_message_stored_after_the_session_was_read_is_still_in_the_models_history() {
        turn("first", session());
        Session readBeforeTheTurnHeldIt = session();
        storeElsewhere("stored while the turn waited");

        turn("second", readBeforeTheTurnHeldIt);

        // the window matched the count read with the session; the user message's seq showed a message came between
        assertThat(historyReads).hasValue(1);
        assertThat(lastContext())
                .containsExactly(
                        "user: first", "assistant: Answer 1.", "user: stored while the turn waited", "user: second");
        // and the window goes on from the store's newest: the next turn reads nothing
        turn("third", session());
        assertThat(historyReads).hasValue(1);
        assertThat(lastContext()).endsWith("user: second", "assistant: Answer 2.", "user: third");
    }

    private void turn(String content, Session session) {
        TurnOutcome outcome = runner.run(
                new TurnRequest(
                        "req-" + content, principal(), session, agent(List.of(), LIMITS), content, new Cancellation()),
                event -> {});
        assertThat(outcome.succeeded()).isTrue();
    }

    private Session session() {
        return store.findSession(USER, SESSION).orElseThrow();
    }

    private void storeElsewhere(String content) {
        store.appendUserMessage(new Message(
                "m-" + content.hashCode(),
                SESSION,
                USER,
                0,
                MessageRole.USER,
                content,
                MessageStatus.COMPLETE,
                null,
                NOW));
    }

    /** The last model request's messages after the system prompt, as "role: text". */
    private List<String> lastContext() {
        List<ChatMessage> messages = model.requests().getLast().messages();
        return messages.subList(1, messages.size()).stream()
                .map(m -> switch (m) {
                    case ChatMessage.User u -> "user: " + u.content();
                    case ChatMessage.Assistant a -> "assistant: " + a.text();
                    default -> m.toString();
                })
                .toList();
    }

    /** The in-memory store, counting the history reads. */
    private ConversationStore counted(ConversationStore target) {
        return (ConversationStore) Proxy.newProxyInstance(
                ConversationStore.class.getClassLoader(),
                new Class<?>[] {ConversationStore.class},
                (p, method, args) -> {
                    if (method.getName().equals("recentMessages")) historyReads.incrementAndGet();
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
