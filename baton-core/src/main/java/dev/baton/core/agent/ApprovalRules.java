package dev.baton.core.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An agent's {@code approval:} section: when its tool calls wait for the user's approval.
 *
 * <pre>
 * approval: always                 # every tool of this agent
 * approval:                        # or per tool
 *   default: when_destructive
 *   tools: {delete_task: always, add_task: never}
 * </pre>
 *
 * @param agentDefault the policy of the agent's tools that {@code tools} does not name; null to leave them to
 *     baton.yaml's {@code approvals.defaultPolicy}
 * @param tools the policy of each tool named, by tool name
 */
public record ApprovalRules(ApprovalPolicy agentDefault, Map<String, ApprovalPolicy> tools) {
    /** The agent says nothing: every tool follows the configured default. */
    public static final ApprovalRules NONE = new ApprovalRules(null, Map.of());

    public ApprovalRules {
        tools = Map.copyOf(tools == null ? Map.of() : tools);
    }

    /** Every tool of the agent under {@code policy}. */
    public static ApprovalRules all(ApprovalPolicy policy) {
        return new ApprovalRules(Objects.requireNonNull(policy, "policy"), Map.of());
    }

    /** These rules with {@code tool} under {@code policy}. */
    public ApprovalRules withTool(String tool, ApprovalPolicy policy) {
        Map<String, ApprovalPolicy> changed = new LinkedHashMap<>(tools);
        changed.put(Objects.requireNonNull(tool, "tool"), Objects.requireNonNull(policy, "policy"));
        return new ApprovalRules(agentDefault, changed);
    }

    /** The policy of {@code toolName}, with {@code fallback} where the agent says nothing. */
    public ApprovalPolicy policyFor(String toolName, ApprovalPolicy fallback) {
        ApprovalPolicy forTool = tools.get(toolName);
        if (forTool != null) return forTool;
        return agentDefault != null ? agentDefault : fallback;
    }

    /**
     * Reads an agent's {@code approval:} section (missing: {@link #NONE}).
     *
     * @param agentId names the agent in messages
     * @throws ConfigProblem naming the agent and what is wrong
     */
    public static ApprovalRules from(JsonNode section, String agentId) {
        String where = "agent " + agentId + ": approval";
        if (section == null || section.isMissingNode() || section.isNull()) return NONE;
        if (section.isTextual()) return all(policy(section, where));
        if (!section.isObject()) throw ConfigProblem.of(section, where + ": must be a policy or {default, tools}");
        for (Iterator<String> fields = section.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!field.equals("default") && !field.equals("tools"))
                throw ConfigProblem.at(section, field, where + ": unknown field '" + field + "' (default, tools)");
        }
        JsonNode agentDefault = section.path("default");
        ApprovalPolicy fallback = agentDefault.isMissingNode() ? null : policy(agentDefault, where);
        JsonNode tools = section.path("tools");
        Map<String, ApprovalPolicy> byTool = new LinkedHashMap<>();
        if (!tools.isMissingNode()) {
            if (!tools.isObject()) throw ConfigProblem.of(tools, where + ": tools must map tool names to policies");
            for (Iterator<Map.Entry<String, JsonNode>> it = tools.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> tool = it.next();
                if (!tool.getValue().isTextual())
                    throw ConfigProblem.at(
                            tools, tool.getKey(), where + ": tools." + tool.getKey() + " must be a policy");
                byTool.put(tool.getKey(), policy(tool.getValue(), where));
            }
        }
        return new ApprovalRules(fallback, byTool);
    }

    private static ApprovalPolicy policy(JsonNode value, String where) {
        try {
            return ApprovalPolicy.fromWire(value.asText(null));
        } catch (IllegalArgumentException e) {
            throw ConfigProblem.of(value, where + ": " + e.getMessage());
        }
    }
}
