package dev.baton.core.context;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.model.ToolSpec;
import java.util.List;
import java.util.Objects;

/**
 * What the model's context is built from.
 *
 * @param currentMessage the user message of this turn, already stored; excluded from history by its id
 * @param tools the tool schemas the model will be sent; they take their share of the context window
 */
public record ContextRequest(
        Principal principal,
        AgentDefinition agent,
        String sessionId,
        Message currentMessage,
        PromptSections sections,
        List<ToolSpec> tools) {
    public ContextRequest {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(currentMessage, "currentMessage");
        sections = sections == null ? PromptSections.NONE : sections;
        tools = List.copyOf(tools == null ? List.of() : tools);
    }
}
