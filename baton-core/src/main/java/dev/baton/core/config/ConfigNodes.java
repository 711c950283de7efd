package dev.baton.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import java.time.Duration;

/** Reads the values every configuration section shares (durations, turn limits) out of a parsed YAML/JSON tree. */
public final class ConfigNodes {
    private ConfigNodes() {}

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
        return new TurnLimits(
                node.path("maxIterations").asInt(base.maxIterations()),
                node.path("maxToolCallsPerTurn").asInt(base.maxToolCallsPerTurn()),
                node.path("maxToolCallsPerConversation").asInt(base.maxToolCallsPerConversation()),
                node.path("historyMessages").asInt(base.historyMessages()),
                node.path("historyTokens").asInt(base.historyTokens()),
                node.path("maxContextTokens").asInt(base.maxContextTokens()),
                duration(node.path("llmTimeout"), base.llmTimeout()),
                duration(node.path("toolTimeout"), base.toolTimeout()),
                duration(node.path("requestTimeout"), base.requestTimeout()));
    }
}
