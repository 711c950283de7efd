package dev.baton.mcp.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import java.time.Duration;
import java.util.Set;

/**
 * baton.yaml's {@code mcp.resources}: how much of an attached resource reaches the model, and how long a read is kept.
 *
 * <pre>{@code
 * mcp:
 *   resources: { maxBytes: 32768, cacheTtl: 60s }
 * }</pre>
 *
 * @param maxBytes the most bytes (UTF-8) of one resource's text that the context carries; the rest is cut
 * @param cacheTtl how long a read is kept when the server does not say ({@code ttlMs} of 2026-07-28), and the longest
 *     it is kept when it does
 */
public record ResourceSettings(int maxBytes, Duration cacheTtl) {
    public static final ResourceSettings DEFAULTS = new ResourceSettings(32 * 1024, Duration.ofSeconds(60));

    private static final Set<String> KEYS = Set.of("maxBytes", "cacheTtl");
    private static final int MAX_BYTES_LIMIT = 1024 * 1024;

    public ResourceSettings {
        if (maxBytes < 1 || maxBytes > MAX_BYTES_LIMIT)
            throw new IllegalArgumentException(
                    "mcp.resources.maxBytes must be from 1 to " + MAX_BYTES_LIMIT + ", got " + maxBytes);
        if (cacheTtl == null || cacheTtl.isNegative())
            throw new IllegalArgumentException("mcp.resources.cacheTtl must be a duration of 0s or more");
    }

    static ResourceSettings parse(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) return DEFAULTS;
        if (!node.isObject()) throw new IllegalArgumentException("mcp.resources must be a map (maxBytes, cacheTtl)");
        node.fieldNames().forEachRemaining(key -> {
            if (!KEYS.contains(key))
                throw new IllegalArgumentException(
                        "mcp.resources: unknown key '" + key + "' (known: maxBytes, cacheTtl)");
        });
        JsonNode max = node.path("maxBytes");
        if (!max.isMissingNode() && !max.canConvertToInt())
            throw new IllegalArgumentException("mcp.resources.maxBytes must be a whole number of bytes, got " + max);
        Duration ttl;
        try {
            ttl = ConfigNodes.duration(node.path("cacheTtl"), DEFAULTS.cacheTtl());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mcp.resources.cacheTtl: " + e.getMessage());
        }
        return new ResourceSettings(max.isMissingNode() ? DEFAULTS.maxBytes() : max.asInt(), ttl);
    }
}
