package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.server.agent.AgentRegistry;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.MessageContent;
import dev.baton.server.http.RequestBody;
import dev.baton.server.http.RequestIds;
import dev.baton.server.http.SseEvents;
import dev.baton.server.http.SseWriter;
import dev.baton.server.limits.BudgetReservation;
import dev.baton.server.limits.RateDecision;
import dev.baton.server.limits.TurnAdmission;
import dev.baton.server.session.SessionLifecycle;
import dev.baton.server.turn.TurnDispatcher;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

/**
 * {@code POST /v1/sessions/{id}/messages} and the one-shot {@code POST /v1/chat}: validate, run the turn, and
 * answer as SSE ({@code Accept: text/event-stream}) or as one JSON document.
 */
public final class MessageRoutes {

    private final SessionRoutes sessions;
    private final AgentRegistry agents;
    private final TurnDispatcher dispatcher;
    private final IdempotencyStore idempotency;
    private final Clock clock;
    private final int maxBodyBytes;
    private final Duration heartbeat;
    private final TurnAdmission admission;

    /** @param admission the rate limits and budgets a message must pass before its turn runs */
    public MessageRoutes(
            SessionRoutes sessions,
            AgentRegistry agents,
            TurnDispatcher dispatcher,
            IdempotencyStore idempotency,
            Clock clock,
            int maxBodyBytes,
            Duration heartbeat,
            TurnAdmission admission) {
        this.admission = admission;
        this.sessions = sessions;
        this.agents = agents;
        this.dispatcher = dispatcher;
        this.idempotency = idempotency;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
        this.heartbeat = heartbeat;
    }

    record SendMessage(String content) {}

    record ChatRequest(String message, String conversationId, String agentId, Boolean stream) {}

    public void register(RoutesConfig routes) {
        routes.post("/v1/sessions/{id}/messages", this::send);
        routes.post("/v1/chat", this::chat);
    }

    private void send(Context ctx) throws IOException {
        Principal p = Caller.with(ctx, SessionRoutes.WRITE);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        SendMessage body = RequestBody.bind(RequestBody.parseObject(raw), SendMessage.class);
        Session session = sessions.owned(ctx, p);
        String content = MessageContent.normalize(body.content());
        String key = ctx.header("Idempotency-Key");
        IdemKey idem = null;
        if (key != null) {
            idem = claimOrReplay(ctx, p, key, raw);
            if (idem == null) return; // a replay costs nothing and runs nothing
        }
        try {
            // a new turn must pass the caller's rate limits (budgets: in runTurn)
            RateDecision rate = admission.acquireRate(p);
            runTurn(ctx, p, session, content, wantsSse(ctx), idem, false, rate, null);
        } catch (RuntimeException | IOException e) {
            // nothing worth replaying was produced: let a retry with the same key run
            if (idem != null) idempotency.release(p.userId(), idem.key());
            throw e;
        }
    }

    private void chat(Context ctx) throws IOException {
        Principal p = Caller.with(ctx, SessionRoutes.WRITE);
        ChatRequest body = RequestBody.bind(RequestBody.jsonObject(ctx, maxBodyBytes), ChatRequest.class);
        String content = MessageContent.normalize(body.message());
        RateDecision rate = admission.acquireRate(p);
        Session session;
        BudgetReservation budget = null;
        try {
            if (body.conversationId() != null) {
                session = sessions.find(p, body.conversationId())
                        .orElseThrow(() -> ApiException.notFound("conversation"));
            } else {
                String agentId = body.agentId() != null ? body.agentId() : defaultAgent();
                // checked before the session is created, so a refused message leaves no empty conversation behind
                budget = admission.reserveBudget(p, agents.find(agentId).orElse(null));
                session = sessions.start(p, agentId, null);
            }
            boolean sse = body.stream() != null ? body.stream() : wantsSse(ctx);
            runTurn(ctx, p, session, content, sse, null, true, rate, budget);
        } finally {
            if (budget != null) budget.close();
        }
    }

    private record IdemKey(String key, String requestHash) {}

    /** @param reserved the turn's budget reservation when already made; null to reserve here */
    private void runTurn(
            Context ctx,
            Principal p,
            Session session,
            String content,
            boolean sse,
            IdemKey idem,
            boolean chatShape,
            RateDecision rate,
            BudgetReservation reserved)
            throws IOException {
        if (!session.isActive())
            throw ApiException.conflict("session_completed", "this session is completed; start a new one");
        AgentDefinition agent = agents.find(session.agentId())
                .orElseThrow(() ->
                        ApiException.conflict("agent_unavailable", "this session's agent is no longer configured"));
        // the session's own limits (resolved when it started) and assignment; 409 once its time ran out
        SessionLifecycle.TurnSetup setup = sessions.lifecycle().beforeTurn(p, session, agent);
        rate.headers().forEach(ctx::header);
        // reserve before the model is called, release once the turn's actual cost is in ai_usage; the session's own
        // limits bound both the turn's cost and how long its reservation outlives an instance that dies
        try (BudgetReservation budget = reserved != null ? reserved : admission.reserveBudget(p, setup.agent())) {
            runAdmitted(ctx, p, session, setup, content, sse, idem, chatShape);
        }
    }

    private void runAdmitted(
            Context ctx,
            Principal p,
            Session session,
            SessionLifecycle.TurnSetup setup,
            String content,
            boolean sse,
            IdemKey idem,
            boolean chatShape)
            throws IOException {
        AgentDefinition agent = setup.agent();
        String requestId = ctx.attribute(RequestIds.ATTRIBUTE);
        Duration timeout = agent.limits().requestTimeout();
        if (sse) {
            ctx.status(200);
            ctx.contentType("text/event-stream; charset=utf-8");
            ctx.header("Cache-Control", "no-cache");
            ctx.header("X-Accel-Buffering", "no");
            var out = ctx.res().getOutputStream();
            SseWriterHolder holder = new SseWriterHolder();
            try {
                TurnOutcome streamed = dispatcher.run(
                        session.id(),
                        timeout,
                        cancellation -> {
                            holder.writer = new SseWriter(out, heartbeat, cancellation::cancel);
                            return new TurnRequest(
                                    requestId, p, session, agent, content, cancellation, setup.assignment());
                        },
                        event -> SseEvents.send(holder.writer, event));
                // before the stream ends, so a client that sends again right away already sees the session completed
                sessions.lifecycle().afterTurn(p, session, setup);
                if (idem != null) {
                    // a retried stream is answered with the finished turn as JSON, not run again
                    if (streamed.terminal() instanceof TurnEvent.Done) {
                        idempotency.complete(
                                p.userId(),
                                idem.key(),
                                200,
                                messageResponse(streamed).toString());
                    } else {
                        idempotency.release(p.userId(), idem.key());
                    }
                }
            } finally {
                // the heartbeat must stop whatever happened after the stream began
                if (holder.writer != null) holder.writer.close();
            }
            return;
        }
        TurnOutcome outcome = dispatcher.run(
                session.id(),
                timeout,
                cancellation ->
                        new TurnRequest(requestId, p, session, agent, content, cancellation, setup.assignment()),
                event -> {});
        sessions.lifecycle().afterTurn(p, session, setup);
        if (outcome.terminal() instanceof TurnEvent.Failed f) throw TurnFailures.toApiException(f);
        ObjectNode json = chatShape ? chatResponse(session, outcome) : messageResponse(outcome);
        if (idem != null) idempotency.complete(p.userId(), idem.key(), 200, json.toString());
        ctx.json(json);
    }

    /** Holds the writer created once the turn's cancellation switch exists. */
    private static final class SseWriterHolder {
        SseWriter writer;
    }

    private static ObjectNode messageResponse(TurnOutcome o) {
        ObjectNode n = Json.MAPPER
                .createObjectNode()
                .put("messageId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        n.set("usage", SseEvents.usage(o.usage()));
        n.put("model", o.model());
        return n;
    }

    private static ObjectNode chatResponse(Session s, TurnOutcome o) {
        ObjectNode n = Json.MAPPER
                .createObjectNode()
                .put("conversationId", s.id())
                .put("turnId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        n.set("usage", SseEvents.usage(o.usage()));
        return n;
    }

    /**
     * Claims the Idempotency-Key for this request, or answers from it: the stored response when the same
     * request already finished (returns null), 409 while it still runs, 422 when the key came with another body.
     */
    private IdemKey claimOrReplay(Context ctx, Principal p, String key, String raw) {
        if (key.isBlank() || key.length() > 200)
            throw ApiException.badRequest("Idempotency-Key must be 1-200 characters");
        String requestHash = hash(raw);
        // two rounds: a claim released between our failed claim and our read is simply claimed again
        for (int round = 0; round < 2; round++) {
            if (idempotency.claim(p.userId(), key, requestHash, clock.instant())) return new IdemKey(key, requestHash);
            Optional<IdempotencyStore.StoredResponse> stored = idempotency.find(p.userId(), key);
            if (stored.isEmpty()) continue;
            if (!stored.get().requestHash().equals(requestHash)) {
                throw new ApiException(
                        422, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
            }
            if (stored.get().inProgress()) break;
            ctx.header("Idempotent-Replayed", "true");
            ctx.status(stored.get().status())
                    .contentType("application/json")
                    .result(stored.get().body());
            return null;
        }
        throw ApiException.conflict(
                "idempotency_key_in_use", "a request with this Idempotency-Key is still running; retry when it ends");
    }

    private String defaultAgent() {
        return agents.all().stream()
                .findFirst()
                .map(AgentDefinition::id)
                .orElseThrow(() -> ApiException.badRequest("field 'agentId' is required"));
    }

    private static boolean wantsSse(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains("text/event-stream");
    }

    private static String hash(String raw) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
