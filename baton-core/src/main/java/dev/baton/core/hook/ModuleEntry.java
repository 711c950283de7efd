package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One {@code modules:} entry of an agent or of the org defaults:
 *
 * <pre>{@code
 * modules:
 *   - pii-redaction                 # just the id
 *   - id: topic-guard
 *     config: {...}                 # handed to the factory
 *     priority: 5                   # optional overrides of the module's own descriptor
 *     timeout: 500ms                # a duration, see Durations
 *     failClosed: true
 *     safeResponse: "..."
 *   - id: analytics
 *     enabled: false                # an agent switching an org default off
 * }</pre>
 */
record ModuleEntry(
        String id,
        boolean enabled,
        JsonNode config,
        Integer priority,
        Duration timeout,
        Boolean failClosed,
        String safeResponse) {

    ModuleEntry {
        Objects.requireNonNull(id, "id");
        config = config == null || config.isMissingNode() || config.isNull()
                ? JsonNodeFactory.instance.objectNode()
                : config.deepCopy();
    }

    /** The entries of a {@code modules:} list; a missing node is no entries. */
    static List<ModuleEntry> parseList(JsonNode list, String where) {
        if (list == null || list.isMissingNode() || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new IllegalArgumentException(where + ": modules must be a list");
        }
        List<ModuleEntry> entries = new ArrayList<>();
        for (JsonNode node : list) {
            entries.add(parse(node, where));
        }
        return entries;
    }

    static ModuleEntry parse(JsonNode node, String where) {
        if (node.isTextual()) {
            return new ModuleEntry(nonBlank(node.asText(), where), true, null, null, null, null, null);
        }
        if (!node.isObject() || !node.path("id").isTextual()) {
            throw new IllegalArgumentException(where + ": a module entry needs an id");
        }
        String id = nonBlank(node.path("id").asText(), where);
        Duration timeout = timeout(node, where + ": module " + id);
        JsonNode priority = node.path("priority");
        if (!priority.isMissingNode() && (!priority.isInt() || priority.asInt() < 1 || priority.asInt() > 99)) {
            throw new IllegalArgumentException(where + ": module " + id + ": priority must be 1..99");
        }
        return new ModuleEntry(
                id,
                node.path("enabled").asBoolean(true),
                node.path("config"),
                priority.isMissingNode() ? null : priority.asInt(),
                timeout,
                node.has("failClosed") ? node.path("failClosed").asBoolean() : null,
                node.path("safeResponse").isTextual()
                        ? node.path("safeResponse").asText()
                        : null);
    }

    private static Duration timeout(JsonNode entry, String where) {
        if (entry.has("timeoutMs")) {
            // ignoring it would silently fall back to the module's default timeout
            throw new IllegalArgumentException(where + ": timeoutMs is now timeout, with a unit: timeout: "
                    + entry.path("timeoutMs").asText() + "ms");
        }
        JsonNode value = entry.path("timeout");
        if (value.isMissingNode()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw new IllegalArgumentException(where + ": timeout must be a duration such as 500ms or 2s");
        }
        Duration timeout;
        try {
            timeout = Durations.parse(value.asText(), "timeout");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
        if (timeout.isZero()) {
            throw new IllegalArgumentException(where + ": timeout must be longer than zero");
        }
        return timeout;
    }

    /** The module's own descriptor with this entry's overrides. */
    ModuleDescriptor apply(ModuleDescriptor own) {
        return new ModuleDescriptor(
                own.id(),
                priority != null ? priority : own.priority(),
                timeout != null ? timeout : own.timeout(),
                failClosed != null ? failClosed : own.failClosed(),
                own.hooks(),
                safeResponse != null ? safeResponse : own.safeResponse());
    }

    boolean overridesDescriptor() {
        return priority != null || timeout != null || failClosed != null || safeResponse != null;
    }

    private static String nonBlank(String id, String where) {
        if (id.isBlank()) {
            throw new IllegalArgumentException(where + ": a module id is blank");
        }
        return id.trim();
    }
}
