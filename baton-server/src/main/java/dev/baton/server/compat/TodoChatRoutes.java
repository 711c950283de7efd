package dev.baton.server.compat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.wire.Views;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * The todo chatbot (design 004): {@code POST /api/{user_id}/chat} with {@code {"conversation_id"?, "message"}} →
 * {@code {"conversation_id", "response", "tool_calls": [{"tool", "result"|"error"}], "created_at"}}. The path's user
 * must be the signed-in one (403 otherwise); a conversation that is not the caller's is 404, exactly like one that
 * does not exist (see docs/compat.md). Conversation ids are Baton's UUIDs, not the design's integers.
 */
public final class TodoChatRoutes {
    private final CompatTurns turns;
    private final String agentId;

    TodoChatRoutes(CompatTurns turns, String agentId) {
        this.turns = turns;
        this.agentId = agentId;
    }

    record TodoRequest(String conversation_id, String message) {}

    public void register(RoutesConfig routes) {
        routes.post("/api/{user_id}/chat", this::chat);
    }

    private void chat(Context ctx) {
        Principal caller = CompatTurns.caller(ctx);
        if (!ctx.pathParam("user_id").equals(caller.userId()))
            throw RefusalException.forbidden("cannot access other users' data");
        TodoRequest body = RequestBody.bind(turns.body(ctx), TodoRequest.class);
        if (body.message() == null) throw RefusalException.invalidInput("field 'message' is required");
        var target =
                new Conversations.ChatTarget(body.conversation_id(), body.conversation_id() == null ? agentId : null);
        turns.json(ctx, caller, target, body.message()).ifPresent(reply -> {
            ObjectNode answer = Json.MAPPER
                    .createObjectNode()
                    .put("conversation_id", reply.conversationId())
                    .put("response", reply.text());
            ArrayNode calls = answer.putArray("tool_calls");
            reply.toolCalls().forEach(c -> calls.add(toolCall(c)));
            ctx.json(answer.put("created_at", reply.createdAt().toString()));
        });
    }

    private static ObjectNode toolCall(ToolCallRecord c) {
        ObjectNode call = Json.MAPPER.createObjectNode().put("tool", c.toolName());
        if (c.errorMessage() != null) return call.put("error", c.errorMessage());
        call.set("result", Views.parseOrText(c.toolResult()));
        return call;
    }
}
