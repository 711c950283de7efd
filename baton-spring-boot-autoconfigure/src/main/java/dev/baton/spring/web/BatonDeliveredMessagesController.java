package dev.baton.spring.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Baton;
import dev.baton.runtime.delivery.DeliveredMessage;
import dev.baton.runtime.delivery.DeliveredMessages;
import dev.baton.runtime.session.Sessions;
import dev.baton.wire.ApiProblem;
import dev.baton.wire.Views;
import dev.baton.wire.WireJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /v1/events}: the caller's sessions' news as Server-Sent Events for as long as the client stays, as
 * {@code baton serve}'s {@code DeliveredMessageRoutes} sends it — {@code ready} once, then a {@code message} event
 * when a background job delivered an assistant message into one of their sessions: {@code {type, sessionId, agentId,
 * source, message}}. {@code ?sessionId=} follows one session (404 unless it is the caller's). Only the caller's own
 * sessions' deliveries reach them; a stream hears of deliveries made by this instance.
 */
@RestController
@RequestMapping("${baton.api.base-path:}/v1")
public class BatonDeliveredMessagesController implements BatonApiEndpoint {
    /** Events held for a client that does not read them; past this, the newest are dropped (the messages are stored). */
    private static final int HELD = 64;

    private final Baton baton;
    private final DeliveredMessages deliveries;
    private final ApiRequests requests;
    private final Duration streamTimeout;
    private final SseHeartbeats heartbeats;

    public BatonDeliveredMessagesController(
            Baton baton,
            DeliveredMessages deliveries,
            CallerResolver callers,
            Duration streamTimeout,
            SseHeartbeats heartbeats) {
        this.baton = baton;
        this.deliveries = deliveries;
        this.requests = new ApiRequests(callers, 0);
        this.streamTimeout = streamTimeout;
        this.heartbeats = heartbeats;
    }

    @GetMapping("/events")
    public ResponseEntity<SseEmitter> follow(HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        if (!caller.hasPermission(Sessions.READ))
            throw new ApiProblem(403, "forbidden", "reading sessions needs " + Sessions.READ);
        String sessionId = request.getParameter("sessionId");
        if (sessionId != null) baton.sessions().get(caller, sessionId); // 404 unless it is the caller's
        SseEmitter emitter = new SseEmitter(streamTimeout.toMillis());
        Listening listening = new Listening(emitter);
        listening.subscription = deliveries.subscribe(delivered -> {
            if (mine(caller, delivered) && (sessionId == null || sessionId.equals(delivered.sessionId())))
                listening.held.offer(delivered);
        });
        listening.stream = heartbeats.open(emitter, listening::clientGone);
        emitter.onCompletion(listening::clientGone);
        emitter.onTimeout(listening::clientGone);
        emitter.onError(e -> listening.clientGone());
        Thread.ofVirtual().name("baton-events-" + caller.userId()).start(listening::run);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(emitter);
    }

    /** One client's stream: what the subscription held for it, sent on a thread of its own until the client goes. */
    private static final class Listening {
        private final SseEmitter emitter;
        private final BlockingQueue<DeliveredMessage> held = new LinkedBlockingQueue<>(HELD);
        private volatile DeliveredMessages.Subscription subscription;
        private volatile SseHeartbeats.Stream stream;
        private volatile boolean gone;
        private long nextId = 1;

        Listening(SseEmitter emitter) {
            this.emitter = emitter;
        }

        void clientGone() {
            gone = true;
        }

        void run() {
            try {
                send("ready", WireJson.MAPPER.createObjectNode());
                while (!gone) {
                    DeliveredMessage next = held.poll(1, TimeUnit.SECONDS);
                    if (next != null) send("message", event(next));
                }
            } catch (IOException | IllegalStateException e) {
                gone = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                subscription.close();
                stream.stop();
            }
        }

        private void send(String type, ObjectNode data) throws IOException {
            ObjectNode payload = WireJson.MAPPER.createObjectNode().put("type", type);
            payload.setAll(data);
            stream.send(
                    SseEmitter.event().id(Long.toString(nextId++)).name(type).data(payload.toString()));
        }
    }

    private static boolean mine(Principal caller, DeliveredMessage delivered) {
        return delivered.tenantId().equals(caller.tenantId())
                && delivered.userId().equals(caller.userId());
    }

    private static ObjectNode event(DeliveredMessage delivered) {
        ObjectNode json = WireJson.MAPPER.createObjectNode();
        json.put("sessionId", delivered.sessionId());
        json.put("agentId", delivered.agentId());
        json.put("source", delivered.source());
        json.set("message", Views.message(delivered.message(), List.of()));
        return json;
    }
}
