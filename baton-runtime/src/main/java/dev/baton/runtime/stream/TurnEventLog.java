package dev.baton.runtime.stream;

import dev.baton.core.turn.TurnEvent;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The events of recent turns, kept (bounded) so a client whose stream dropped can take it up again where it left off
 * and a second client can follow a running turn (DESIGN §14). The log holds {@link TurnEvent}s in the runtime's own
 * encoding ({@link TurnEventCodec}: a type name and JSON text, opaque to an adapter) — no front door's wire: each door
 * renders an event it reads back as it renders a live one. Events are numbered 1, 2, … per turn; those numbers are the
 * SSE ids, so {@code Last-Event-ID} is a position in the log. {@link TurnEventRecorder} keeps a turn's events as they
 * happen; {@link FollowedTurns} says who may read them.
 *
 * <p>{@link #inProcess} keeps them in this process; the baton-redis module keeps them in Redis Streams, so any
 * instance can replay and follow a turn running on another. Each turn's log keeps its newest {@code maxEvents} and
 * is forgotten {@code retention} after its last event.
 */
public interface TurnEventLog extends AutoCloseable {

    /** A log in this process's memory. */
    static TurnEventLog inProcess(TurnEventLogSettings settings) {
        return new LocalTurnEventLog(settings);
    }

    /**
     * Opens a turn's log for appending: a new turn's, or a paused turn's going on (numbering continues after its last
     * kept event). Only one writer appends to a turn at a time (the turn holds its session).
     */
    Writer writer(String turnId, TurnOwner owner);

    /** Whose turn it is; empty when the log does not know the turn (never seen, or forgotten). */
    Optional<TurnOwner> owner(String turnId);

    /** The newest turn of a session whose events are kept. */
    Optional<String> lastTurn(String sessionId);

    /** Opens a reader of a turn's log (a blocking read may hold a connection of its own: close it). */
    Reader reader(String turnId);

    @Override
    void close();

    /** Appends a turn's events. */
    interface Writer {
        /**
         * Appends one event in its encoding ({@link TurnEventCodec#type}, {@link TurnEventCodec#encode}) and returns
         * its number. Never throws: a log that failed only loses the event.
         */
        long append(String type, String data);

        /** Appends one event and returns its number. Never throws: a log that failed only loses the event. */
        default long append(TurnEvent event) {
            return append(TurnEventCodec.type(event), TurnEventCodec.encode(event));
        }

        /**
         * Says the turn's stream ended for now (its last event, or a pause for approval): the log may keep what it
         * has in a form that is cheaper to hold but slower to read. A paused turn going on appends again through a
         * new {@link #writer}.
         */
        default void ended() {}
    }

    /** Reads a turn's events. */
    interface Reader extends AutoCloseable {
        /**
         * The kept events after {@code afterId}, oldest first; when there are none yet, waits up to {@code maxWait}
         * for some. Events trimmed away by {@code maxEvents} are skipped (the ids show the gap).
         */
        List<LoggedEvent> read(long afterId, Duration maxWait);

        @Override
        void close();
    }

    /** Whose turn a log holds, for access checks. */
    record TurnOwner(String tenantId, String userId, String sessionId) {
        public TurnOwner {
            Objects.requireNonNull(tenantId, "tenantId");
            Objects.requireNonNull(userId, "userId");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** One kept event, as encoded ({@link #event()} decodes it). */
    record LoggedEvent(long id, String type, String data) {
        public LoggedEvent {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(data, "data");
        }

        /**
         * The event.
         *
         * @throws IllegalArgumentException when it is not in this version's encoding (an earlier version's instance
         *     wrote it to a shared log)
         */
        public TurnEvent event() {
            return TurnEventCodec.decode(type, data);
        }
    }
}
