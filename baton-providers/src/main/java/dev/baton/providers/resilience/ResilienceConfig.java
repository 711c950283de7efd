package dev.baton.providers.resilience;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import java.util.Objects;

/**
 * The {@code resilience:} section of baton.yaml: retries, the time-to-first-token limit and the circuit breakers
 * of model providers and tool sources. Every key is optional.
 *
 * <pre>
 * resilience:
 *   timeToFirstToken: 10s
 *   timeoutRetryFactor: 1.5
 *   retryDelay: 2s
 *   retryJitter: 0.2
 *   modelBreaker: {failures: 3, openFor: 60s, halfOpenProbes: 1}
 *   toolBreaker:  {failures: 5, openFor: 30s, halfOpenProbes: 1}
 * </pre>
 */
public record ResilienceConfig(ResilienceSettings models, BreakerSettings tools) {

    public static final ResilienceConfig DEFAULTS =
            new ResilienceConfig(ResilienceSettings.DEFAULTS, BreakerSettings.TOOL_DEFAULTS);

    public ResilienceConfig {
        Objects.requireNonNull(models, "models");
        Objects.requireNonNull(tools, "tools");
    }

    /** Reads the section; a missing section means the defaults. */
    public static ResilienceConfig from(JsonNode section) {
        if (section == null || section.isMissingNode() || section.isNull()) {
            return DEFAULTS;
        }
        if (!section.isObject()) {
            throw new IllegalArgumentException("resilience must be a mapping");
        }
        ResilienceSettings d = ResilienceSettings.DEFAULTS;
        try {
            ResilienceSettings models = new ResilienceSettings(
                    ConfigNodes.duration(section.path("timeToFirstToken"), d.timeToFirstToken()),
                    section.path("timeoutRetryFactor").asDouble(d.timeoutRetryFactor()),
                    ConfigNodes.duration(section.path("retryDelay"), d.retryDelay()),
                    section.path("retryJitter").asDouble(d.retryJitter()),
                    breaker(section.path("modelBreaker"), d.breaker()));
            return new ResilienceConfig(models, breaker(section.path("toolBreaker"), BreakerSettings.TOOL_DEFAULTS));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resilience: " + e.getMessage());
        }
    }

    private static BreakerSettings breaker(JsonNode node, BreakerSettings defaults) {
        if (node.isMissingNode() || node.isNull()) {
            return defaults;
        }
        return new BreakerSettings(
                node.path("failures").asInt(defaults.failureThreshold()),
                ConfigNodes.duration(node.path("openFor"), defaults.openDuration()),
                node.path("halfOpenProbes").asInt(defaults.halfOpenProbes()));
    }
}
