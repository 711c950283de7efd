package dev.baton.runtime.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalPolicy;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.tool.ToolDefinition;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * baton.yaml's {@code approvals:} section.
 *
 * <pre>
 * approvals:
 *   expiresAfter: 24h                # an undecided call is denied by expiry after this long
 *   defaultPolicy: when_destructive  # for tools an agent's approval: section does not name
 *   expiryBatch: 100                 # paused turns closed per run of the expiry (which runs every lifecycle.sweepInterval)
 * </pre>
 */
public record ApprovalSettings(Duration expiresAfter, ApprovalPolicy defaultPolicy, int expiryBatch) {
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "approvals";

    public static final ApprovalSettings DEFAULTS =
            new ApprovalSettings(Duration.ofHours(24), ApprovalPolicy.WHEN_DESTRUCTIVE, 100);

    public ApprovalSettings {
        if (expiresAfter == null || expiresAfter.isNegative() || expiresAfter.isZero())
            throw new IllegalArgumentException("approvals.expiresAfter must be positive");
        Objects.requireNonNull(defaultPolicy, "defaultPolicy");
        if (expiryBatch < 1) throw new IllegalArgumentException("approvals.expiryBatch must be >= 1");
    }

    /**
     * Why a call of {@code tool} by {@code agent} must wait for the user's approval, in a sentence for the user; empty
     * when it may run: the agent's {@code approval:} for the tool, else {@link #defaultPolicy()}. The one rule for a
     * turn's calls and for calls outside any turn (an MCP client's).
     */
    public Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool) {
        return agent.approval().policyFor(tool.name(), defaultPolicy).reason(tool);
    }

    /** These settings, an undecided call denied by expiry after {@code after}. */
    public ApprovalSettings withExpiresAfter(Duration after) {
        return new ApprovalSettings(after, defaultPolicy, expiryBatch);
    }

    /** These settings with {@code policy} for tools an agent's {@code approval:} does not name. */
    public ApprovalSettings withDefaultPolicy(ApprovalPolicy policy) {
        return new ApprovalSettings(expiresAfter, policy, expiryBatch);
    }

    /** These settings, at most {@code batch} paused turns closed per run of the expiry. */
    public ApprovalSettings withExpiryBatch(int batch) {
        return new ApprovalSettings(expiresAfter, defaultPolicy, batch);
    }

    /** Reads the section (missing fields keep their defaults). */
    public static ApprovalSettings from(JsonNode section) {
        // unknown keys stop the start with their line, like every other section
        ConfigSection.of(section, SECTION, "expiresAfter", "defaultPolicy", "expiryBatch");
        JsonNode policy = section.path("defaultPolicy");
        return new ApprovalSettings(
                ConfigNodes.duration(section.path("expiresAfter"), DEFAULTS.expiresAfter()),
                policy.isMissingNode() || policy.isNull()
                        ? DEFAULTS.defaultPolicy()
                        : ApprovalPolicy.fromWire(policy.asText()),
                section.path("expiryBatch").asInt(DEFAULTS.expiryBatch()));
    }
}
