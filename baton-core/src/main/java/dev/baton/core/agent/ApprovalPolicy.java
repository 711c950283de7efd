package dev.baton.core.agent;

import dev.baton.core.tool.ToolDefinition;
import java.util.Locale;
import java.util.Optional;

/**
 * When a tool call waits for the user's approval. Each tool's policy comes from its agent's {@link ApprovalRules}
 * ({@code approval:} in its file), else from baton.yaml's {@code approvals.defaultPolicy}, else
 * {@link #WHEN_DESTRUCTIVE}.
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
}
