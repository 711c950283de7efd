package dev.baton.core.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A resource of a connected MCP server that an agent's context carries on every turn: one entry of its
 * {@code context.mcpResources}.
 *
 * <pre>
 * context:
 *   mcpResources:
 *     - { server: docs, uri: "file:///handbook.md" }
 * </pre>
 *
 * @param server the configured name of the MCP server
 * @param uri the resource's URI on that server, read as it is
 */
public record AttachedResource(String server, String uri) {
    private static final Set<String> CONTEXT_KEYS = Set.of("mcpResources");
    private static final Set<String> ENTRY_KEYS = Set.of("server", "uri");

    public AttachedResource {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(uri, "uri");
    }

    /**
     * Reads an agent's {@code context:} section (missing: none).
     *
     * @param agentId names the agent in messages
     * @throws ConfigProblem naming the agent and what is wrong
     */
    public static List<AttachedResource> fromContext(JsonNode context, String agentId) {
        String where = "agent " + agentId + ": context";
        if (context == null || context.isMissingNode() || context.isNull()) return List.of();
        if (!context.isObject()) throw ConfigProblem.of(context, where + " must be a mapping (mcpResources)");
        for (Iterator<String> keys = context.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!CONTEXT_KEYS.contains(key))
                throw ConfigProblem.at(context, key, where + ": unknown key '" + key + "' (mcpResources)");
        }
        JsonNode list = context.path("mcpResources");
        if (list.isMissingNode() || list.isNull()) return List.of();
        if (!list.isArray())
            throw ConfigProblem.of(list, where + ".mcpResources must be a list of {server, uri} entries");
        List<AttachedResource> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            String at = where + ".mcpResources[" + i + "]";
            if (!entry.isObject()) throw ConfigProblem.of(entry, at + " must be a mapping {server, uri}");
            for (Iterator<String> keys = entry.fieldNames(); keys.hasNext(); ) {
                String key = keys.next();
                if (!ENTRY_KEYS.contains(key))
                    throw ConfigProblem.at(entry, key, at + ": unknown key '" + key + "' (server, uri)");
            }
            AttachedResource resource = new AttachedResource(text(entry, "server", at), text(entry, "uri", at));
            if (out.contains(resource)) throw ConfigProblem.of(entry, at + " names " + resource.label() + " twice");
            out.add(resource);
        }
        return List.copyOf(out);
    }

    /** "docs file:///handbook.md", for messages. */
    public String label() {
        return server + " " + uri;
    }

    private static String text(JsonNode entry, String key, String at) {
        JsonNode value = entry.path(key);
        if (!value.isTextual() || value.asText().isBlank())
            throw ConfigProblem.at(entry, key, at + "." + key + " must be a non-empty text");
        return value.asText().strip();
    }
}
