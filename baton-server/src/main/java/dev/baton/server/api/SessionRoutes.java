package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.wire.Views;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/** Session endpoints except sending a message (see {@link MessageRoutes}): HTTP in, {@link Sessions} calls out. */
public final class SessionRoutes {

    private final Sessions sessions;
    /** Null: sessions do not report what waits for approval. */
    private final Approvals approvals;
    /** Null: sessions do not name their last turn. */
    private final TurnEventLog events;

    private final int maxBodyBytes;

    public SessionRoutes(Sessions sessions, int maxBodyBytes) {
        this(sessions, null, null, maxBodyBytes);
    }

    public SessionRoutes(Sessions sessions, Approvals approvals, TurnEventLog events, int maxBodyBytes) {
        this.sessions = sessions;
        this.approvals = approvals;
        this.events = events;
        this.maxBodyBytes = maxBodyBytes;
    }

    record CreateSession(String agentId, String assignmentId) {}

    public void register(RoutesConfig routes) {
        routes.post("/v1/sessions", this::create);
        routes.get("/v1/sessions", this::list);
        routes.get("/v1/sessions/{id}", this::get);
        routes.get("/v1/sessions/{id}/messages", this::messages);
        routes.post("/v1/sessions/{id}/complete", this::complete);
        routes.post(
                "/v1/sessions/{id}/cancel",
                ctx -> ctx.json(
                        Json.MAPPER.createObjectNode().put("cancelled", sessions.cancel(Caller.of(ctx), id(ctx)))));
        routes.delete("/v1/sessions/{id}", ctx -> {
            sessions.delete(Caller.of(ctx), id(ctx));
            ctx.status(204);
        });
    }

    /**
     * The session; with approvals, {@code awaitingApproval} and the {@code pendingApprovals} its turn waits on; with
     * an event log, {@code lastTurnId}: its newest turn whose events are kept, to follow.
     */
    private void get(Context ctx) {
        Principal p = Caller.of(ctx);
        ObjectNode view = Views.session(sessions.get(p, id(ctx)));
        if (approvals != null) {
            var pending = approvals.pending(p, id(ctx));
            view.put("awaitingApproval", !pending.isEmpty());
            ArrayNode calls = view.putArray("pendingApprovals");
            for (ToolApproval a : pending) calls.add(Views.approval(a));
        }
        if (events != null) events.lastTurn(id(ctx)).ifPresent(turn -> view.put("lastTurnId", turn));
        ctx.json(view);
    }

    private void create(Context ctx) {
        Principal p = Caller.with(ctx, Sessions.WRITE);
        CreateSession body = RequestBody.bind(RequestBody.jsonObject(ctx, maxBodyBytes), CreateSession.class);
        ctx.status(201).json(Views.session(sessions.start(p, body.agentId(), body.assignmentId())));
    }

    private void list(Context ctx) {
        Principal p = Caller.with(ctx, Sessions.READ);
        SessionState st = stateParam(ctx);
        int limit = intParam(ctx, "limit", 20, 1, 100);
        SessionPage page =
                sessions.list(p, new SessionQuery(ctx.queryParam("agentId"), st, limit, ctx.queryParam("cursor")));
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("sessions");
        page.sessions().forEach(s -> arr.add(Views.session(s)));
        out.put("nextCursor", page.nextCursor());
        ctx.json(out);
    }

    private void messages(Context ctx) {
        Principal p = Caller.with(ctx, Sessions.READ);
        int limit = intParam(ctx, "limit", 50, 1, 200);
        String before = ctx.queryParam("before");
        Long beforeSeq;
        try {
            beforeSeq = before == null ? null : Long.parseLong(before);
        } catch (NumberFormatException e) {
            throw RefusalException.invalidInput("before must be a message seq number");
        }
        ctx.json(Views.messages(sessions.messages(p, id(ctx), beforeSeq, limit)));
    }

    private void complete(Context ctx) {
        ctx.json(Views.completed(sessions.complete(Caller.of(ctx), id(ctx))));
    }

    /** The {@code state} query parameter: null when absent, 400 when it is neither active nor completed. */
    public static SessionState stateParam(Context ctx) {
        String state = ctx.queryParam("state");
        try {
            return state == null ? null : SessionState.fromWire(state);
        } catch (IllegalArgumentException e) {
            throw RefusalException.invalidInput("state must be 'active' or 'completed'");
        }
    }

    private static String id(Context ctx) {
        return ctx.pathParam("id");
    }

    static int intParam(Context ctx, String name, int fallback, int min, int max) {
        String v = ctx.queryParam(name);
        if (v == null) return fallback;
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw RefusalException.invalidInput(name + " must be a number from " + min + " to " + max);
        }
    }
}
