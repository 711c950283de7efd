package dev.baton.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.learning.memory.MemoryService;
import dev.baton.learning.tool.AgentJson;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.session.Sessions;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.wire.Views;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * The learning agent's own API (design 002): {@code POST /api/agent/chat} with {@code {"message"}} →
 * {@code {"message", "toolCalls", "conversationId"}} (the design's frontend also sends {@code userId}, which must be the
 * caller's, and {@code conversationHistory}, which is ignored: the stored history wins), continuing the caller's newest active conversation with the
 * learning agent (or starting one); {@code GET /api/agent/memory/{userId}} and {@code POST /api/agent/reset/{userId}}
 * for the caller themself, or anyone of their tenant with {@code admin:learning} (the memory service decides).
 */
public final class AgentApiRoutes {
    private final CompatTurns turns;
    private final Sessions sessions;
    private final MemoryService memory;
    private final String agentId;

    AgentApiRoutes(CompatTurns turns, Sessions sessions, MemoryService memory, String agentId) {
        this.turns = turns;
        this.sessions = sessions;
        this.memory = memory;
        this.agentId = agentId;
    }

    /**
     * The design's frontend body: {@code message}, and the {@code userId} and {@code conversationHistory} its page
     * sends. {@code userId} must be the caller's (403 otherwise, decided from the token alone, before anything is
     * looked up); {@code conversationHistory} must be an array when sent and is ignored: the server's stored history of
     * the running conversation is what the model sees. Any other field is 400 {@code unknown_field}.
     */
    record AgentRequest(String message, String userId, List<JsonNode> conversationHistory) {}

    public void register(RoutesConfig routes) {
        routes.post("/api/agent/chat", this::chat);
        routes.get(
                "/api/agent/memory/{userId}",
                ctx -> ctx.json(AgentJson.memory(memory.memory(Caller.of(ctx), ctx.pathParam("userId")))));
        routes.post("/api/agent/reset/{userId}", this::reset);
    }

    private void chat(Context ctx) {
        Principal caller = CompatTurns.caller(ctx);
        AgentRequest body = RequestBody.bind(turns.body(ctx), AgentRequest.class);
        if (body.userId() != null && !body.userId().equals(caller.userId()))
            throw RefusalException.forbidden("userId is not the signed-in user");
        if (body.message() == null) throw RefusalException.invalidInput("field 'message' is required");
        // body.conversationHistory() is deliberately unused: the stored history wins over the client's copy
        // the design's API names no conversation: the learner has one running conversation with the agent
        String current = sessions.resume(caller, agentId).map(Session::id).orElse(null);
        var target = new Conversations.ChatTarget(current, current == null ? agentId : null);
        turns.json(ctx, caller, target, body.message()).ifPresent(reply -> {
            ObjectNode answer = Json.MAPPER.createObjectNode().put("message", reply.text());
            ArrayNode calls = answer.putArray("toolCalls");
            reply.toolCalls().forEach(c -> calls.add(toolCall(c)));
            ctx.json(answer.put("conversationId", reply.conversationId()));
        });
    }

    private void reset(Context ctx) {
        String userId = ctx.pathParam("userId");
        int conversations = memory.reset(Caller.of(ctx), userId);
        ctx.json(Json.MAPPER
                .createObjectNode()
                .put("userId", userId)
                .put("reset", true)
                .put("conversationsDeleted", conversations));
    }

    private static ObjectNode toolCall(ToolCallRecord c) {
        ObjectNode call = Json.MAPPER.createObjectNode().put("toolName", c.toolName());
        call.set("parameters", Views.parseOrText(c.toolArgs()));
        call.set(
                "result",
                c.errorMessage() != null
                        ? Json.MAPPER.createObjectNode().put("error", c.errorMessage())
                        : Views.parseOrText(c.toolResult()));
        return call;
    }
}
