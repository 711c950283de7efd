package dev.baton.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import java.time.Duration;
import java.util.Set;

/** Reads the values every configuration section shares (durations, turn limits) out of a parsed YAML/JSON tree. */
public final class ConfigNodes {
    private ConfigNodes() {}

    /**
     * The keys of a {@code limits:} block that {@link #limits} reads. The block is shared with the session limits,
     * so its owner checks for unknown keys against the union of both readers' keys.
     */
    public static final Set<String> TURN_LIMIT_KEYS = Set.of(
            "maxIterations",
            "maxToolCallsPerTurn",
            "maxToolCallsPerConversation",
            "historyMessages",
            "historyTokens",
            "maxContextTokens",
            "llmTimeout",
            "toolTimeout",
            "requestTimeout");

    /**
     * A duration: ISO-8601 ({@code PT30S}) or a number with a unit ({@code 250ms}, {@code 30s}, {@code 5m},
     * {@code 24h}, {@code 1d}); {@code fallback} when the node is absent or null.
     *
     * @throws IllegalArgumentException for anything else, a bare number included (its unit would be a guess)
     */
    public static Duration duration(JsonNode node, Duration fallback) {
        if (node == null || node.isMissingNode() || node.isNull()) return fallback;
        // a number node is shown as written, so a bare number is refused with the same advice as "30"
        return Durations.parse(node.asText(), "duration");
    }

    /** Overlays the limits set in {@code node} on {@code base}: the cascade's "most specific wins". */
    public static TurnLimits limits(JsonNode node, TurnLimits base) {
        return limits(node, "limits", base);
    }

    /**
     * Overlays the limits set in {@code node} on {@code base}.
     *
     * @param path the block's name in messages, e.g. {@code limits} or {@code agent tutor: limits}
     * @throws ConfigProblem for a value of the wrong type or out of range (unknown keys are the block owner's to
     *     check, against {@link #TURN_LIMIT_KEYS} and the session limits' keys)
     */
    public static TurnLimits limits(JsonNode node, String path, TurnLimits base) {
        ConfigSection s = ConfigSection.part(node, path, TURN_LIMIT_KEYS);
        return new TurnLimits(
                s.integer("maxIterations", base.maxIterations(), 1),
                s.integer("maxToolCallsPerTurn", base.maxToolCallsPerTurn(), 0),
                s.integer("maxToolCallsPerConversation", base.maxToolCallsPerConversation(), 0),
                s.integer("historyMessages", base.historyMessages(), 0),
                s.integer("historyTokens", base.historyTokens(), 0),
                s.integer("maxContextTokens", base.maxContextTokens(), 1),
                s.duration("llmTimeout", base.llmTimeout()),
                s.duration("toolTimeout", base.toolTimeout()),
                s.duration("requestTimeout", base.requestTimeout()));
    }
}
