package dev.baton.spring.web;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.Baton;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.wire.FollowedTurnEvents;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
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
        long after =
                FollowedTurnEvents.lastEventId(request.getHeader("Last-Event-ID"), request.getParameter("lastEventId"));
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
        private final long after;
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
            try {
                boolean over = FollowedTurnEvents.follow(
                        turn,
                        after,
                        () -> !gone,
                        (id, type, json) -> stream.send(SseEmitter.event()
                                .id(Long.toString(id))
                                .name(type)
                                .data(json)));
                if (over) emitter.complete();
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
}
