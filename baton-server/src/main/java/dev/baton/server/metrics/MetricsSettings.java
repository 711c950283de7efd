package dev.baton.server.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code metrics:} section of baton.yaml: whether {@code GET /metrics} exists, and the bearer token it asks for.
 *
 * <pre>{@code
 * metrics:
 *   enabled: true        # or BATON_METRICS_ENABLED; false = no /metrics (404) and no meters at all
 *   token: s3cret-scrape # or BATON_METRICS_TOKEN; absent = /metrics needs no token, like /healthz
 * }</pre>
 *
 * @param token the bearer token a scraper must send; null when /metrics is open
 */
public record MetricsSettings(boolean enabled, String token) {

    public static final MetricsSettings DEFAULTS = new MetricsSettings(true, null);

    public MetricsSettings {
        token = token == null || token.isBlank() ? null : token.strip();
    }

    /**
     * Reads the section; the environment's {@code BATON_METRICS_ENABLED} and {@code BATON_METRICS_TOKEN} override it.
     *
     * @throws IllegalArgumentException when a value has the wrong type
     */
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "metrics";

    public static MetricsSettings parse(JsonNode section, Map<String, String> env) {
        ConfigSection.of(section, SECTION, "enabled", "token");
        JsonNode s = section == null || section.isNull() ? MissingNode.getInstance() : section;
        boolean enabled = bool(env.get("BATON_METRICS_ENABLED"), s.path("enabled"));
        String token = env.get("BATON_METRICS_TOKEN");
        if (token == null || token.isBlank()) {
            JsonNode t = s.path("token");
            if (!t.isMissingNode() && !t.isNull() && !t.isTextual()) {
                throw ConfigProblem.at(s, "token", "metrics.token must be a string");
            }
            token = t.isTextual() ? t.asText() : null;
        }
        return new MetricsSettings(enabled, token);
    }

    private static boolean bool(String fromEnv, JsonNode fromYaml) {
        if (fromEnv != null && !fromEnv.isBlank()) {
            return switch (fromEnv.strip().toLowerCase(Locale.ROOT)) {
                case "true", "1", "yes", "on" -> true;
                case "false", "0", "no", "off" -> false;
                default -> throw new IllegalArgumentException("BATON_METRICS_ENABLED must be true or false");
            };
        }
        if (fromYaml.isMissingNode() || fromYaml.isNull()) return DEFAULTS.enabled();
        if (!fromYaml.isBoolean())
            throw ConfigProblem.of(fromYaml, "metrics.enabled must be true or false, got '" + fromYaml.asText() + "'");
        return fromYaml.asBoolean();
    }

    @Override
    public String toString() {
        // the token is a secret: never in logs
        return "MetricsSettings[enabled=" + enabled + ", token=" + (token == null ? "none" : "***") + "]";
    }
}
