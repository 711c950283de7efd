package dev.baton.runtime.delivery;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.id.Ids;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.turn.RunningTurns;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts an assistant message into a session outside a turn — what a background job prepared for the conversation that
 * asked for it — and tells whoever follows the user's sessions. The message is stored through the conversation store
 * like a turn's answer (no tool calls, no usage: the job's model call recorded its own), so history and every client
 * see it; then each subscriber of this process hears of it ({@link #subscribe}).
 *
 * <p>Only the session's own user gets a message: a session that is not theirs (or is gone) gets nothing, and the job
 * learns only that it was not delivered.
 */
public final class DeliveredMessages {
    private static final Logger log = LoggerFactory.getLogger(DeliveredMessages.class);
    /** How long a delivery waits for a session's running turn to end. */
    static final Duration MAX_WAIT = Duration.ofMinutes(5);
    /** How often a waiting delivery looks again. */
    private static final Duration RETRY = Duration.ofMillis(200);
    /** How long a delivery holds its session at most (one write). */
    private static final Duration HOLD = Duration.ofSeconds(30);

    private static final String CUT = "\n\n_(cut short: the rest is too long for one message)_";

    private final ConversationStore store;
    private final Clock clock;
    private final List<Consumer<DeliveredMessage>> subscribers = new CopyOnWriteArrayList<>();
    private volatile RunningTurns turns;

    public DeliveredMessages(ConversationStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Delivers into a session only between its turns, holding it as a turn does (on every instance when the turns are
     * shared), so a message never lands in the middle of a turn — the material a turn's tool call asked for comes
     * after that turn's answer. Until bound (the runtime is built after the domains that deliver), nothing is held.
     */
    public DeliveredMessages bind(RunningTurns runningTurns) {
        this.turns = Objects.requireNonNull(runningTurns, "runningTurns");
        return this;
    }

    /**
     * Stores the message in the user's session and announces it.
     *
     * @return the delivered message, or empty when the session is not the user's (or no longer exists)
     */
    public Optional<DeliveredMessage> deliver(Delivery delivery) {
        RunningTurns running = turns;
        if (running == null) return store(delivery);
        Cancellation held = holdBetweenTurns(running, delivery.sessionId());
        try {
            return store(delivery);
        } finally {
            if (held != null) running.end(delivery.sessionId(), held);
        }
    }

    /**
     * Waits for the session's running turn to end and holds the session; null when a turn still runs after
     * {@link #MAX_WAIT} (the message is then stored anyway: it is not lost for a turn that runs long).
     */
    private Cancellation holdBetweenTurns(RunningTurns running, String sessionId) {
        long deadline = System.nanoTime() + MAX_WAIT.toNanos();
        while (true) {
            try {
                return running.begin(sessionId, HOLD);
            } catch (RefusalException busy) {
                if (System.nanoTime() > deadline) {
                    log.warn("session {}: a turn ran through the delivery's wait; delivered beside it", sessionId);
                    return null;
                }
                try {
                    Thread.sleep(RETRY.toMillis()); // a background job's thread: waiting costs no request anything
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
    }

    private Optional<DeliveredMessage> store(Delivery delivery) {
        Optional<Session> session = store.findSession(delivery.userId(), delivery.sessionId())
                .filter(s -> s.tenantId().equals(delivery.tenantId()));
        if (session.isEmpty()) return Optional.empty();
        String content = delivery.content().length() > Delivery.MAX_CONTENT
                ? delivery.content().substring(0, Delivery.MAX_CONTENT) + CUT
                : delivery.content();
        Message unsaved = new Message(
                Ids.newId(),
                delivery.sessionId(),
                delivery.userId(),
                0,
                MessageRole.ASSISTANT,
                content,
                MessageStatus.COMPLETE,
                null,
                clock.instant().truncatedTo(ChronoUnit.MICROS));
        Message stored = store.completeTurn(delivery.userId(), new TurnRecord(unsaved, List.of(), List.of()));
        DeliveredMessage delivered =
                new DeliveredMessage(delivery.tenantId(), session.get().agentId(), delivery.source(), stored);
        for (Consumer<DeliveredMessage> subscriber : subscribers) {
            try {
                subscriber.accept(delivered);
            } catch (RuntimeException e) {
                log.warn("session {}: a delivery subscriber failed: {}", delivery.sessionId(), e.toString());
            }
        }
        return Optional.of(delivered);
    }

    /**
     * Hears of every message delivered in this process from now on (a subscriber filters by user itself, and must not
     * block: it runs on the delivering thread).
     *
     * @return closes the subscription
     */
    public Subscription subscribe(Consumer<DeliveredMessage> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }

    /** A subscriber's hold on the deliveries; closing it is all there is. */
    @FunctionalInterface
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }
}
