package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.server.agent.AgentRegistry;
import dev.baton.server.assignment.Assignments;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.server.session.SessionLifecycle;
import dev.baton.server.turn.RunningTurns;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Session endpoints except sending a message (see {@link MessageRoutes}). */
public final class SessionRoutes {

    public static final String READ = "sessions:read:self";
    public static final String WRITE = "sessions:write:self";

    private final ConversationStore store;
    private final AgentRegistry agents;
    private final RunningTurns running;
    private final Clock clock;
    private final int maxBodyBytes;
    private final SessionLifecycle lifecycle;
    private final Assignments assignments;

    /**
     * @param lifecycle starts and completes sessions under their resolved configuration, reporting each
     * @param assignments what {@code assignmentId} may name
     */
    public SessionRoutes(
            ConversationStore store,
            AgentRegistry agents,
            RunningTurns running,
            Clock clock,
            int maxBodyBytes,
            SessionLifecycle lifecycle,
            Assignments assignments) {
        this.store = store;
        this.agents = agents;
        this.running = running;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
        this.lifecycle = lifecycle;
        this.assignments = assignments;
    }

    record CreateSession(String agentId, String assignmentId) {}

    public void register(RoutesConfig routes) {
        routes.post("/v1/sessions", this::create);
        routes.get("/v1/sessions", this::list);
        routes.get("/v1/sessions/{id}", ctx -> ctx.json(Views.session(owned(ctx, READ))));
        routes.get("/v1/sessions/{id}/messages", this::messages);
        routes.post("/v1/sessions/{id}/complete", this::complete);
        routes.post("/v1/sessions/{id}/cancel", this::cancel);
        routes.delete("/v1/sessions/{id}", this::delete);
    }

    private void create(Context ctx) {
        Principal p = Caller.with(ctx, WRITE);
        CreateSession body = RequestBody.bind(RequestBody.jsonObject(ctx, maxBodyBytes), CreateSession.class);
        Session s = start(p, body.agentId(), body.assignmentId());
        ctx.status(201).json(Views.session(s));
    }

    /**
     * Starts a session for the principal with an agent it may use; shared with the one-shot chat endpoint. With an
     * assignment (which must be open to the principal now: 404 unknown, 403 other class or not open) the agent may be
     * left out and is the assignment's.
     */
    Session start(Principal p, String agentId, String assignmentId) {
        Assignment assignment = assignmentId == null ? null : assignments.openFor(p, assignmentId, clock.instant());
        if ((agentId == null || agentId.isBlank()) && assignment != null) agentId = assignment.agentId();
        if (agentId == null || agentId.isBlank()) throw ApiException.badRequest("field 'agentId' is required");
        AgentDefinition agent = agents.find(agentId).orElseThrow(() -> ApiException.notFound("agent"));
        if (agents.usableBy(agent.id(), p).isEmpty()) throw ApiException.forbidden("your role may not use this agent");
        if (assignment != null && !assignment.agentId().equals(agent.id()))
            throw new ApiException(
                    422,
                    "invalid_value",
                    "assignment " + assignment.id() + " is done with agent " + assignment.agentId());
        return lifecycle.start(p, agent, assignment);
    }

    /** Starts, checks and completes sessions; the message routes ask it before and after every turn. */
    SessionLifecycle lifecycle() {
        return lifecycle;
    }

    private void list(Context ctx) {
        Principal p = Caller.with(ctx, READ);
        String state = ctx.queryParam("state");
        SessionState st;
        try {
            st = state == null ? null : SessionState.fromWire(state);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("state must be 'active' or 'completed'");
        }
        int limit = intParam(ctx, "limit", 20, 1, 100);
        String cursor = ctx.queryParam("cursor");
        SessionPage page;
        try {
            page = store.listSessions(p.userId(), new SessionQuery(ctx.queryParam("agentId"), st, limit, cursor));
        } catch (IllegalArgumentException e) {
            // the store refuses a cursor it did not issue; anything else it refuses is a bug (500)
            if (cursor == null) throw e;
            throw ApiException.badRequest("cursor is not one this server issued; use nextCursor as given");
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("sessions");
        // the same subject in another tenant is another user (a page may come out shorter; its cursor still holds)
        page.sessions().stream().filter(s -> s.tenantId().equals(p.tenantId())).forEach(s -> arr.add(Views.session(s)));
        out.put("nextCursor", page.nextCursor());
        ctx.json(out);
    }

    private void messages(Context ctx) {
        Principal p = Caller.with(ctx, READ);
        Session s = owned(ctx, p);
        int limit = intParam(ctx, "limit", 50, 1, 200);
        String before = ctx.queryParam("before");
        Long beforeSeq;
        try {
            beforeSeq = before == null ? null : Long.parseLong(before);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("before must be a message seq number");
        }
        List<Message> msgs = store.listMessages(p.userId(), s.id(), beforeSeq, limit);
        List<String> assistantIds = msgs.stream()
                .filter(m -> m.role() == MessageRole.ASSISTANT)
                .map(Message::id)
                .toList();
        // one query for the page's tool calls, never one per message
        Map<String, List<ToolCallRecord>> calls = assistantIds.isEmpty()
                ? Map.of()
                : store.toolCallsOf(p.userId(), s.id(), assistantIds).stream()
                        .filter(c -> c.messageId() != null)
                        .collect(Collectors.groupingBy(ToolCallRecord::messageId));
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("messages");
        msgs.forEach(m -> arr.add(Views.message(m, calls.getOrDefault(m.id(), List.of()))));
        ctx.json(out);
    }

    private void complete(Context ctx) {
        Principal p = Caller.with(ctx, WRITE);
        Session s = owned(ctx, p);
        if (!s.isActive()) throw ApiException.conflict("session_completed", "session is already completed");
        Session done = lifecycle
                .completeByUser(p, s.id())
                .orElseThrow(() -> ApiException.conflict("session_completed", "session is already completed"));
        ctx.json(Json.MAPPER
                .createObjectNode()
                .put("id", done.id())
                .put("state", done.state().wireName())
                .put("endedAt", done.endedAt().toString()));
    }

    private void cancel(Context ctx) {
        Principal p = Caller.with(ctx, WRITE);
        Session s = owned(ctx, p);
        ctx.json(Json.MAPPER.createObjectNode().put("cancelled", running.cancel(s.id())));
    }

    private void delete(Context ctx) {
        Principal p = Caller.with(ctx, WRITE);
        Session s = owned(ctx, p);
        running.cancel(s.id());
        if (!store.deleteSession(p.userId(), s.id())) throw ApiException.notFound("session");
        ctx.status(204);
    }

    private Session owned(Context ctx, String permission) {
        return owned(ctx, Caller.with(ctx, permission));
    }

    /** The path's session if it is the caller's; another user's session is indistinguishable from none (404). */
    Session owned(Context ctx, Principal p) {
        return find(p, ctx.pathParam("id")).orElseThrow(() -> ApiException.notFound("session"));
    }

    /**
     * The caller's session by id, if it exists and is theirs. The store keys sessions by user id alone; the same
     * subject in another tenant is another user, so the tenant must match too.
     */
    java.util.Optional<Session> find(Principal p, String sessionId) {
        return store.findSession(p.userId(), sessionId).filter(s -> s.tenantId().equals(p.tenantId()));
    }

    static int intParam(Context ctx, String name, int fallback, int min, int max) {
        String v = ctx.queryParam(name);
        if (v == null) return fallback;
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + " must be a number from " + min + " to " + max);
        }
    }
}
