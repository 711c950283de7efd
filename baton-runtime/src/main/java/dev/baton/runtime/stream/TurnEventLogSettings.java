package dev.baton.runtime.stream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigSection;
import java.time.Duration;

/**
 * baton.yaml's {@code streams:} section.
 *
 * <pre>
 * streams:
 *   maxEvents: 10000   # per turn; the oldest are dropped beyond it
 *   retention: 10m     # a turn's events are forgotten this long after its last one
 *   redisKeyPrefix: "baton:"   # with Redis: streams at &lt;prefix&gt;events:&lt;turnId&gt;
 * </pre>
 */
public record TurnEventLogSettings(int maxEvents, Duration retention, String redisKeyPrefix) {
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "streams";

    public static final TurnEventLogSettings DEFAULTS =
            new TurnEventLogSettings(10_000, Duration.ofMinutes(10), "baton:");

    public TurnEventLogSettings {
        if (maxEvents < 1) throw new IllegalArgumentException("streams.maxEvents must be >= 1");
        if (retention == null || retention.isNegative() || retention.isZero())
            throw new IllegalArgumentException("streams.retention must be positive");
        redisKeyPrefix = redisKeyPrefix == null || redisKeyPrefix.isBlank() ? "baton:" : redisKeyPrefix;
    }

    /** These settings, keeping at most {@code max} events per turn. */
    public TurnEventLogSettings withMaxEvents(int max) {
        return new TurnEventLogSettings(max, retention, redisKeyPrefix);
    }

    /** These settings, a turn's events forgotten {@code after} its last one. */
    public TurnEventLogSettings withRetention(Duration after) {
        return new TurnEventLogSettings(maxEvents, after, redisKeyPrefix);
    }

    /** These settings with the turns' Redis streams under {@code prefix}. */
    public TurnEventLogSettings withRedisKeyPrefix(String prefix) {
        return new TurnEventLogSettings(maxEvents, retention, prefix);
    }

    /** Reads the section (missing fields keep their defaults). */
    public static TurnEventLogSettings from(JsonNode section) {
        ConfigSection.of(section, SECTION, "maxEvents", "retention", "redisKeyPrefix");
        JsonNode prefix = section.path("redisKeyPrefix");
        return new TurnEventLogSettings(
                section.path("maxEvents").asInt(DEFAULTS.maxEvents()),
                ConfigNodes.duration(section.path("retention"), DEFAULTS.retention()),
                prefix.isTextual() ? prefix.asText() : DEFAULTS.redisKeyPrefix());
    }
}
