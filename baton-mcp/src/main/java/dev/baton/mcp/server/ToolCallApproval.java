package dev.baton.mcp.server;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.runtime.tool.ToolAccess;
import java.util.Objects;
import java.util.Optional;

/**
 * Which calls over {@code /mcp} need the user's approval, and what happens to them: Baton's approval rules decide
 * (the agent's {@code approval:}, else {@code approvals.defaultPolicy} — the same rule as a turn's); a 2026-07-28
 * client that can be asked gets the question as an elicitation ({@link ToolConfirmation}); any other client is refused
 * with a tool error — unless the operator trusts MCP clients to have asked their user themselves
 * ({@code server.mcpTrustClientConfirmation}), when the call runs. Never silently: a run without Baton's question is
 * logged as trusted.
 *
 * @param trustClients true to run a call needing approval from a client that cannot be asked
 */
public record ToolCallApproval(Rule rule, boolean trustClients) {
    /** The tool error code of a call refused because it needs approval no one can give over this connection. */
    public static final String REFUSED = "approval_required";

    /** The code of a call whose user said no. */
    public static final String DENIED = "approval_denied";

    /** Baton's approval rule, as the runtime applies it. */
    @FunctionalInterface
    public interface Rule {
        /** Why a call of {@code tool} by {@code agent} needs the user's approval; empty when it may run. */
        Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool);
    }

    public ToolCallApproval {
        Objects.requireNonNull(rule, "rule");
    }

    /** Why a call of the permitted tool needs approval; empty when it may run as it is. */
    Optional<String> reasonToHold(ToolAccess.Permitted permitted) {
        return rule.reasonToHold(permitted.agent(), permitted.tool().definition());
    }

    /** The sentence a refused call answers with. */
    static String refusal(String tool, String reason, String why) {
        return REFUSED + ": " + reason + " " + why + ", so " + tool
                + " was not run. Use an MCP client that answers elicitations (protocol 2026-07-28), or Baton's own"
                + " chat, where you can approve it.";
    }
}
