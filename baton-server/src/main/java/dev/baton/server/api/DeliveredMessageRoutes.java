package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.delivery.DeliveredMessage;
import dev.baton.runtime.delivery.DeliveredMessages;
import dev.baton.runtime.session.Sessions;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.SseStreams;
import dev.baton.server.http.SseWriter;
import dev.baton.wire.Views;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /v1/events}: the caller's sessions' news as SSE, for as long as the client stays — today one event,
 * {@code message}, when a background job delivered an assistant message into one of their sessions (the learning
 * agent's prepared material): {@code {type, sessionId, agentId, source, message}} with the message as
 * {@code GET /v1/sessions/{id}/messages} shows it. {@code ?sessionId=} follows one session (404 unless it is the
 * caller's). Only the caller's own sessions' events reach them; a stream hears of deliveries made by this instance
 * (a client that reconnects, or reads the session's messages, sees every stored message whichever instance stored
 * it).
 */
public final class DeliveredMessageRoutes {
    /** Events held for a client that does not read them; past this, the newest are dropped (the messages are stored). */
    private static final int HELD = 64;

    private final DeliveredMessages deliveries;
    private final Sessions sessions;
    private final SseStreams streams;

    public DeliveredMessageRoutes(DeliveredMessages deliveries, Sessions sessions, SseStreams streams) {
        this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.streams = Objects.requireNonNull(streams, "streams");
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/events", this::follow);
    }

    private void follow(Context ctx) throws IOException {
        Principal caller = Caller.of(ctx);
        if (!caller.hasPermission(Sessions.READ))
            throw new ApiException(403, "forbidden", "reading sessions needs " + Sessions.READ);
        String sessionId = ctx.queryParam("sessionId");
        if (sessionId != null) sessions.get(caller, sessionId); // 404 unless it is the caller's
        BlockingQueue<DeliveredMessage> held = new LinkedBlockingQueue<>(HELD);
        ctx.status(200);
        ctx.contentType("text/event-stream; charset=utf-8");
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Accel-Buffering", "no");
        try (DeliveredMessages.Subscription subscription = deliveries.subscribe(delivered -> {
                    if (mine(caller, delivered) && (sessionId == null || sessionId.equals(delivered.sessionId())))
                        held.offer(delivered);
                });
                SseWriter out = streams.open(ctx.res().getOutputStream(), () -> {}, () -> {})) {
            out.send("ready", Json.MAPPER.createObjectNode());
            while (!out.disconnected()) {
                DeliveredMessage next = held.poll(1, TimeUnit.SECONDS);
                if (next != null) out.send("message", event(next));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean mine(Principal caller, DeliveredMessage delivered) {
        return delivered.tenantId().equals(caller.tenantId())
                && delivered.userId().equals(caller.userId());
    }

    private static ObjectNode event(DeliveredMessage delivered) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("sessionId", delivered.sessionId());
        json.put("agentId", delivered.agentId());
        json.put("source", delivered.source());
        json.set("message", Views.message(delivered.message(), List.of()));
        return json;
    }
}
