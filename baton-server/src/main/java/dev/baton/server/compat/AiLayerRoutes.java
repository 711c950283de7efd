package dev.baton.server.compat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.wire.SseEvents;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * The learning platform's AI layer (design 000): {@code POST /v1/ai/chat} and {@code POST /v1/ai/execute} with
 * {@code {"prompt", "conversation_id"?, "stream"?}} → {@code {"answer", "conversation_id", "turn_id"}}, or Baton's SSE
 * events when {@code stream} is true. Both run one turn of the configured agent (learning-platform) through the
 * runtime; {@code execute} is the same call under the design's second name.
 */
public final class AiLayerRoutes {
    private final CompatTurns turns;
    private final String agentId;

    AiLayerRoutes(CompatTurns turns, String agentId) {
        this.turns = turns;
        this.agentId = agentId;
    }

    record AiRequest(String prompt, String conversation_id, Boolean stream) {}

    public void register(RoutesConfig routes) {
        routes.post("/v1/ai/chat", this::turn);
        routes.post("/v1/ai/execute", this::turn);
    }

    private void turn(Context ctx) {
        Principal caller = CompatTurns.caller(ctx);
        AiRequest body = RequestBody.bind(turns.body(ctx), AiRequest.class);
        if (body.prompt() == null) throw RefusalException.invalidInput("field 'prompt' is required");
        var target =
                new Conversations.ChatTarget(body.conversation_id(), body.conversation_id() == null ? agentId : null);
        if (Boolean.TRUE.equals(body.stream())) {
            turns.stream(ctx, caller, target, body.prompt(), (writer, event) -> {
                SseEvents.Rendered rendered = SseEvents.render(event);
                writer.send(rendered.type(), rendered.data());
            });
            return;
        }
        turns.json(ctx, caller, target, body.prompt()).ifPresent(reply -> {
            ObjectNode answer = Json.MAPPER
                    .createObjectNode()
                    .put("answer", reply.text())
                    .put("conversation_id", reply.conversationId())
                    .put("turn_id", reply.turnId());
            ctx.json(answer);
        });
    }
}
