package dev.baton.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

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
        String text = node.asText().trim();
        if (node.isNumber())
            throw new IllegalArgumentException(
                    "duration '" + text + "' needs a unit, e.g. " + text + "s or " + text + "ms");
        String s = text.toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (s.startsWith("p")) d = Duration.parse(s.toUpperCase(Locale.ROOT));
            else if (s.endsWith("ms")) d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            else {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                d = switch (s.charAt(s.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    case 'd' -> Duration.ofDays(n);
                    default -> throw badDuration(text);
                };
            }
            if (d.isNegative()) throw new IllegalArgumentException("duration '" + text + "' must not be negative");
            return d;
        } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
            throw badDuration(text);
        }
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

    private static IllegalArgumentException badDuration(String text) {
        return new IllegalArgumentException(
                "bad duration '" + text + "': use ISO-8601 (PT30S) or a number with a unit (250ms, 30s, 5m, 24h, 1d)");
    }
}
