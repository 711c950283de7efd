package dev.baton.wire;

import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnEventLog;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /v1/sessions/{id}/turns/{turnId}/events} as every door serves it: the {@code Last-Event-ID} a client
 * resumes from, and the followed turn's logged events after it, rendered as the turn's own stream renders them, until
 * its {@code done} or {@code error}. Each door only writes what this hands it.
 */
public final class FollowedTurnEvents {
    /** Where a door writes one rendered event. */
    @FunctionalInterface
    public interface Sink {
        void send(long id, String type, String json) throws IOException;
    }

    private static final Logger log = LoggerFactory.getLogger(FollowedTurnEvents.class);
    /** How long one read waits for new events before the loop checks the client and the turn again. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private FollowedTurnEvents() {}

    /**
     * The event id a client resumes after: {@code Last-Event-ID}, else {@code ?lastEventId=} (for clients that cannot
     * set headers); 0 for none.
     *
     * @throws ApiProblem 400 {@code invalid_request} for a value that is no event id
     */
    public static long lastEventId(String header, String queryParam) {
        String value = header != null ? header : queryParam;
        if (value == null || value.isBlank()) return 0;
        try {
            long id = Long.parseLong(value.trim());
            if (id < 0) throw new NumberFormatException();
            return id;
        } catch (NumberFormatException e) {
            throw new ApiProblem(400, "invalid_request", "Last-Event-ID must be an event id from this stream");
        }
    }

    /**
     * Where to resume: after {@code lastSeen}, unless that id is past the newest kept event — the log was started
     * again (an in-process log lost with its instance, whose turn the restarted instance took over): then from the
     * start of what is kept, whose {@code turn.started} carries the answer so far.
     */
    private static long within(TurnEventLog.Reader reader, long lastSeen) {
        if (lastSeen <= 0) return lastSeen;
        List<TurnEventLog.LoggedEvent> kept = reader.read(0, Duration.ZERO);
        return !kept.isEmpty() && kept.getLast().id() < lastSeen ? 0 : lastSeen;
    }

    /**
     * Sends the turn's events after {@code after} as they are logged, while {@code open} holds.
     *
     * @return true when the stream is over (the turn's terminal event was sent, or the log forgot a turn whose
     *     instance died), false when {@code open} stopped holding first
     */
    public static boolean follow(FollowedTurns.Followed turn, long after, BooleanSupplier open, Sink sink)
            throws IOException {
        try (TurnEventLog.Reader reader = turn.reader()) {
            after = within(reader, after);
            while (open.getAsBoolean()) {
                List<TurnEventLog.LoggedEvent> events = reader.read(after, POLL);
                for (TurnEventLog.LoggedEvent e : events) {
                    after = e.id();
                    TurnEvent event;
                    try {
                        event = e.event();
                    } catch (IllegalArgumentException unreadable) {
                        // written by an earlier version's instance to a shared log: not this version's encoding
                        log.debug("event {} of a followed turn skipped: {}", e.id(), unreadable.getMessage());
                        continue;
                    }
                    SseEvents.Rendered rendered = SseEvents.render(event);
                    sink.send(e.id(), rendered.type(), rendered.json());
                    if (event.isTerminal()) return true;
                }
                // a turn whose instance died never ends: stop once the log has forgotten it
                if (events.isEmpty() && turn.forgotten()) return true;
            }
            return false;
        }
    }
}
