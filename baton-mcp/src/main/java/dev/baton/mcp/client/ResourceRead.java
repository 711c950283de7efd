package dev.baton.mcp.client;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;

/**
 * What a server answered to {@code resources/read}, with the caching it asked for.
 *
 * @param ttlMs how long the result may be kept (2026-07-28 servers); null when the server did not say
 * @param privateScope whether the server said the result is the caller's own ({@code cacheScope: private})
 */
record ResourceRead(List<McpSchema.ResourceContents> contents, Long ttlMs, boolean privateScope) {
    ResourceRead {
        contents = contents == null ? List.of() : List.copyOf(contents);
    }
}
