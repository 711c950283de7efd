package dev.baton.providers.resilience;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
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

    /** The section of baton.yaml this reads. */
    public static final String SECTION = "resilience";

    /** Reads the section; a missing section means the defaults. */
    public static ResilienceConfig from(JsonNode section) {
        ConfigSection s = ConfigSection.of(
                section,
                SECTION,
                "timeToFirstToken",
                "timeoutRetryFactor",
                "retryDelay",
                "retryJitter",
                "modelBreaker",
                "toolBreaker");
        if (s.isEmpty()) return DEFAULTS;
        ResilienceSettings d = ResilienceSettings.DEFAULTS;
        try {
            ResilienceSettings models = new ResilienceSettings(
                    s.duration("timeToFirstToken", d.timeToFirstToken()),
                    s.number("timeoutRetryFactor", d.timeoutRetryFactor()),
                    s.duration("retryDelay", d.retryDelay()),
                    s.number("retryJitter", d.retryJitter()),
                    breaker(s, "modelBreaker", d.breaker()));
            return new ResilienceConfig(models, breaker(s, "toolBreaker", BreakerSettings.TOOL_DEFAULTS));
        } catch (ConfigProblem e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw ConfigProblem.of(section, "resilience: " + e.getMessage());
        }
    }

    private static BreakerSettings breaker(ConfigSection section, String key, BreakerSettings defaults) {
        ConfigSection s = section.section(key, "failures", "openFor", "halfOpenProbes");
        if (s.isEmpty()) return defaults;
        return new BreakerSettings(
                s.integer("failures", defaults.failureThreshold(), 1),
                s.duration("openFor", defaults.openDuration()),
                s.integer("halfOpenProbes", defaults.halfOpenProbes(), 1));
    }
}
