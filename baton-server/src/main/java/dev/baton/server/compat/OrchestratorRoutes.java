package dev.baton.server.compat;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.conversation.Conversations;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * The stateless orchestrator (design 003): {@code POST /chat/stream} with {@code {"input", "conversation_id"?,
 * "user_id"?}} → that design's SSE events ({@link OrchestratorEvents}). Without a conversation id each request is a new
 * conversation with the configured agent (tasks); with one it continues the caller's conversation. Either way the
 * response names the conversation: the {@code X-Conversation-ID} header and {@code conversation_id} in {@code done}.
 */
public final class OrchestratorRoutes {
    /**
     * Names the conversation the stream's turn runs in (new or continued), in the design's own header style
     * ({@code X-Request-ID}); the {@code done} event carries it too as {@code conversation_id}.
     */
    static final String CONVERSATION_HEADER = "X-Conversation-ID";

    private final CompatTurns turns;
    private final String agentId;

    OrchestratorRoutes(CompatTurns turns, String agentId) {
        this.turns = turns;
        this.agentId = agentId;
    }

    public void register(RoutesConfig routes) {
        routes.post("/chat/stream", this::stream);
    }

    private void stream(Context ctx) {
        Principal caller = CompatTurns.caller(ctx);
        OrchestratorRequest request = OrchestratorRequest.parse(turns.body(ctx), caller);
        var target = new Conversations.ChatTarget(
                request.conversationId(), request.conversationId() == null ? agentId : null);
        turns.stream(ctx, caller, target, request.input(), new OrchestratorEvents(), CONVERSATION_HEADER);
    }
}
