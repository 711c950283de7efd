package dev.baton.server.compat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.audit.AuditTrails;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.session.Sessions;
import dev.baton.server.api.AuditRoutes;
import dev.baton.server.api.SessionRoutes;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.wire.Views;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.regex.Pattern;

/**
 * The chat runtime's own API (design 001), over the same {@link Sessions}, {@link Conversations} and
 * {@link AuditTrails} as {@code /v1}: {@code POST /sessions {toolId, assignmentId?, submissionId?}}, {@code GET
 * /sessions?toolId=&state=&limit=}, {@code GET /sessions/{id}}, {@code POST /sessions/{id}/messages {content}} (that
 * design's SSE events, {@link ChatRuntimeEvents}), {@code POST /sessions/{id}/complete}, {@code POST
 * /sessions/{id}/cancel}, {@code GET /sessions/{id}/messages} and {@code GET /admin/sessions/{id}/audit}. The design's
 * "tool" is a Baton agent ({@code toolId} = agent id). As that design says, a session id that is no UUID is 400.
 */
public final class ChatRuntimeRoutes {
    private static final Pattern UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final CompatTurns turns;
    private final Sessions sessions;
    private final AuditTrails audit;
    private final String defaultAgent;
    private final int maxBodyBytes;

    ChatRuntimeRoutes(CompatTurns turns, Sessions sessions, AuditTrails audit, String defaultAgent, int maxBodyBytes) {
        this.turns = turns;
        this.sessions = sessions;
        this.audit = audit;
        this.defaultAgent = defaultAgent;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** {@code submissionId} is the design's link to its own submission records; Baton has none and ignores it. */
    record CreateSession(String toolId, String assignmentId, String submissionId) {}

    record SendMessage(String content) {}

    public void register(RoutesConfig routes) {
        routes.post("/sessions", this::create);
        routes.get("/sessions", this::list);
        routes.get("/sessions/{id}", this::get);
        routes.post("/sessions/{id}/messages", this::send);
        routes.get("/sessions/{id}/messages", this::messages);
        routes.post("/sessions/{id}/complete", this::complete);
        routes.post(
                "/sessions/{id}/cancel",
                ctx -> ctx.json(
                        Json.MAPPER.createObjectNode().put("cancelled", sessions.cancel(Caller.of(ctx), id(ctx)))));
        routes.get(
                "/admin/sessions/{id}/audit",
                ctx -> ctx.json(AuditRoutes.body(audit.sessionAudit(Caller.of(ctx), id(ctx)))));
    }

    private void create(Context ctx) {
        Principal caller = Caller.with(ctx, Sessions.WRITE);
        CreateSession body = RequestBody.bind(RequestBody.jsonObject(ctx, maxBodyBytes), CreateSession.class);
        String agent = body.toolId() == null ? defaultAgent : body.toolId();
        ctx.status(201).json(view(sessions.start(caller, agent, body.assignmentId())));
    }

    private void list(Context ctx) {
        Principal caller = Caller.with(ctx, Sessions.READ);
        SessionState st = SessionRoutes.stateParam(ctx);
        int limit = limit(ctx);
        SessionPage page =
                sessions.list(caller, new SessionQuery(ctx.queryParam("toolId"), st, limit, ctx.queryParam("cursor")));
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode list = out.putArray("sessions");
        page.sessions().forEach(s -> list.add(view(s)));
        out.put("nextCursor", page.nextCursor());
        ctx.json(out);
    }

    private void get(Context ctx) {
        ctx.json(view(sessions.get(Caller.of(ctx), id(ctx))));
    }

    private void send(Context ctx) {
        Principal caller = CompatTurns.caller(ctx);
        String session = id(ctx);
        SendMessage body = RequestBody.bind(turns.body(ctx), SendMessage.class);
        if (body.content() == null) throw RefusalException.invalidInput("content is required");
        turns.stream(ctx, caller, new Conversations.ChatTarget(session, null), body.content(), new ChatRuntimeEvents());
    }

    private void messages(Context ctx) {
        Principal caller = Caller.with(ctx, Sessions.READ);
        ctx.json(Views.messages(sessions.messages(caller, id(ctx), null, 200)));
    }

    private void complete(Context ctx) {
        ctx.json(Views.completed(sessions.complete(Caller.of(ctx), id(ctx))));
    }

    /** The design's session: {@code {id, toolId, state, startedAt}}, with Baton's other fields beside them. */
    private static ObjectNode view(Session s) {
        ObjectNode n = Json.MAPPER
                .createObjectNode()
                .put("id", s.id())
                .put("toolId", s.agentId())
                .put("state", s.state().wireName())
                .put("startedAt", s.startedAt().toString());
        if (s.assignmentId() != null) n.put("assignmentId", s.assignmentId());
        n.put("endedAt", s.endedAt() == null ? null : s.endedAt().toString());
        n.put("messageCount", s.messageCount());
        return n;
    }

    private static int limit(Context ctx) {
        String v = ctx.queryParam("limit");
        if (v == null) return 50;
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= 100) return n;
        } catch (NumberFormatException e) {
            // answered below
        }
        throw RefusalException.invalidInput("limit must be a number from 1 to 100");
    }

    /** The session id of the path, which that design checks before anything else: no UUID is 400. */
    private static String id(Context ctx) {
        String id = ctx.pathParam("id");
        if (!UUID.matcher(id).matches())
            throw new ApiException(400, "invalid_request", "invalid session id: expected a UUID");
        return id;
    }
}
