package dev.baton.runtime.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.tool.ToolDefinition;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * When a tool call waits for the user's approval. Each tool's policy comes from its agent's {@code approval:} section,
 * else from baton.yaml's {@code approvals.defaultPolicy}, else {@link #WHEN_DESTRUCTIVE}:
 *
 * <pre>
 * approval: always                 # every tool of this agent
 * approval:                        # or per tool
 *   default: when_destructive
 *   tools: {delete_task: always, add_task: never}
 * </pre>
 */
public enum ApprovalPolicy {
    /** Runs without asking. */
    NEVER,
    /** Every call waits for approval. */
    ALWAYS,
    /** A call waits when its tool is destructive ({@link ToolDefinition#destructive()}). */
    WHEN_DESTRUCTIVE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException for anything but never, always, when_destructive */
    public static ApprovalPolicy fromWire(String value) {
        for (ApprovalPolicy p : values()) {
            if (p.wireName().equals(value)) return p;
        }
        throw new IllegalArgumentException(
                "approval policy must be never, always or when_destructive, not '" + value + "'");
    }

    /** Why a call of {@code tool} must wait under this policy; empty when it may run. */
    public Optional<String> reason(ToolDefinition tool) {
        return switch (this) {
            case NEVER -> Optional.empty();
            case ALWAYS -> Optional.of("Every call of " + tool.name() + " needs your approval.");
            case WHEN_DESTRUCTIVE ->
                tool.destructive()
                        ? Optional.of(tool.name() + " changes or deletes something that cannot simply be undone.")
                        : Optional.empty();
        };
    }

    /** The policy of {@code toolName} for {@code agent}, with {@code fallback} where the agent says nothing. */
    public static ApprovalPolicy of(AgentDefinition agent, String toolName, ApprovalPolicy fallback) {
        JsonNode section = agent.definition().path("approval");
        if (section.isTextual()) return fromWire(section.asText());
        JsonNode forTool = section.path("tools").path(toolName);
        if (forTool.isTextual()) return fromWire(forTool.asText());
        JsonNode agentDefault = section.path("default");
        return agentDefault.isTextual() ? fromWire(agentDefault.asText()) : fallback;
    }

    /**
     * Checks an agent's {@code approval:} section, so a mistake fails at start rather than at a tool call.
     *
     * @throws IllegalArgumentException naming the agent and what is wrong
     */
    public static void validate(AgentDefinition agent) {
        JsonNode section = agent.definition().path("approval");
        String where = "agent " + agent.id() + ": approval";
        try {
            if (section.isMissingNode() || section.isNull() || section.isTextual()) {
                if (section.isTextual()) fromWire(section.asText());
                return;
            }
            if (!section.isObject()) throw new IllegalArgumentException("must be a policy or {default, tools}");
            for (Iterator<String> fields = section.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                if (!field.equals("default") && !field.equals("tools"))
                    throw new IllegalArgumentException("unknown field '" + field + "' (default, tools)");
            }
            JsonNode agentDefault = section.path("default");
            if (!agentDefault.isMissingNode()) fromWire(agentDefault.asText(null));
            JsonNode tools = section.path("tools");
            if (tools.isMissingNode()) return;
            if (!tools.isObject()) throw new IllegalArgumentException("tools must map tool names to policies");
            for (Iterator<Map.Entry<String, JsonNode>> it = tools.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> tool = it.next();
                if (!tool.getValue().isTextual())
                    throw new IllegalArgumentException("tools." + tool.getKey() + " must be a policy");
                fromWire(tool.getValue().asText());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
