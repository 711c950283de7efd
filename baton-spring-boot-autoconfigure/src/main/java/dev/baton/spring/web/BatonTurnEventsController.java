package dev.baton.spring.web;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Baton;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.wire.ApiProblem;
import dev.baton.wire.SseEvents;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /v1/sessions/{id}/turns/{turnId}/events}: a turn's events as Server-Sent Events from the runtime's turn
 * event log — those after {@code Last-Event-ID} (or {@code ?lastEventId=}; all without), with the ids they had, then
 * the new ones as they happen, until the turn's {@code done} or {@code error}. A client takes a dropped stream up
 * again this way, and a second client follows a running turn. Who may follow which turn is the runtime's rule
 * ({@link FollowedTurns}): an unknown turn, one of another session, or one the caller may not see is 404. A client
 * that has seen the turn's end already gets 204 at once, as from {@code baton serve}. The stream gets the same
 * heartbeats as a turn's own ({@link SseHeartbeats}).
 */
@RestController
@RequestMapping("${baton.api.base-path:}/v1/sessions")
public class BatonTurnEventsController implements BatonApiEndpoint {
    private static final Logger log = LoggerFactory.getLogger(BatonTurnEventsController.class);
    /** How long one read waits for new events before the loop checks the client and the turn again. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private final Baton baton;
    private final ApiRequests requests;
    private final Duration streamTimeout;
    private final SseHeartbeats heartbeats;

    public BatonTurnEventsController(
            Baton baton, CallerResolver callers, Duration streamTimeout, SseHeartbeats heartbeats) {
        this.baton = baton;
        this.requests = new ApiRequests(callers, 0);
        this.streamTimeout = streamTimeout;
        this.heartbeats = heartbeats;
    }

    @GetMapping("/{id}/turns/{turnId}/events")
    public ResponseEntity<?> follow(
            @PathVariable String id,
            @PathVariable String turnId,
            HttpServletRequest request,
            HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        FollowedTurns.Followed turn = baton.followedTurns().follow(caller, id, turnId);
        long after = lastEventId(request);
        // nothing will follow, ever: 204 also tells a browser's EventSource to stop reconnecting
        if (turn.seenToItsEnd(after)) return ResponseEntity.noContent().build();
        SseEmitter emitter = new SseEmitter(streamTimeout.toMillis());
        Following following = new Following(turn, emitter, after);
        following.stream = heartbeats.open(emitter, following::clientGone);
        emitter.onCompletion(following::clientGone);
        emitter.onTimeout(following::clientGone);
        emitter.onError(e -> following.clientGone());
        Thread.ofVirtual().name("baton-follow-" + turnId).start(following::run);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(emitter);
    }

    /** Reads the log and sends what it holds, on a thread of its own, until the turn's end or the client's. */
    private static final class Following {
        private final FollowedTurns.Followed turn;
        private final SseEmitter emitter;
        private long after;
        private volatile boolean gone;
        private volatile SseHeartbeats.Stream stream;

        Following(FollowedTurns.Followed turn, SseEmitter emitter, long after) {
            this.turn = turn;
            this.emitter = emitter;
            this.after = after;
        }

        void clientGone() {
            gone = true;
            stream.stop();
        }

        void run() {
            try (TurnEventLog.Reader reader = turn.reader()) {
                while (!gone) {
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
                        stream.send(SseEmitter.event()
                                .id(Long.toString(e.id()))
                                .name(rendered.type())
                                .data(rendered.json()));
                        if (event.isTerminal()) {
                            emitter.complete();
                            return;
                        }
                    }
                    // a turn whose instance died never ends: stop once the log has forgotten it
                    if (events.isEmpty() && turn.forgotten()) {
                        emitter.complete();
                        return;
                    }
                }
            } catch (IOException | IllegalStateException e) {
                gone = true;
            } catch (Exception e) {
                log.warn("following a turn failed", e);
                emitter.completeWithError(e);
            } finally {
                stream.stop();
            }
        }
    }

    /** {@code Last-Event-ID} (or {@code ?lastEventId=}, for clients that cannot set headers); 0 for none. */
    private static long lastEventId(HttpServletRequest request) {
        String value = request.getHeader("Last-Event-ID");
        if (value == null) value = request.getParameter("lastEventId");
        if (value == null || value.isBlank()) return 0;
        try {
            long id = Long.parseLong(value.trim());
            if (id < 0) throw new NumberFormatException();
            return id;
        } catch (NumberFormatException e) {
            throw new ApiProblem(400, "invalid_request", "Last-Event-ID must be an event id from this stream");
        }
    }
}
