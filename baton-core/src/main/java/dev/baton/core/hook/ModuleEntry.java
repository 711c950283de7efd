package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
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
 *
 * @param enabled false: an agent switching an org default off
 * @param config the module's own options, handed to its {@link ModuleFactory} (an empty object when none)
 * @param priority overrides the module's own priority (1–99); null keeps it
 * @param timeout overrides the module's own timeout per call; null keeps it
 * @param failClosed overrides whether a failure blocks the turn; null keeps it
 * @param safeResponse overrides what a fail-closed failure answers; null keeps it
 */
public record ModuleEntry(
        String id,
        boolean enabled,
        JsonNode config,
        Integer priority,
        Duration timeout,
        Boolean failClosed,
        String safeResponse) {

    /** The keys of a module entry. */
    static final List<String> KEYS =
            List.of("id", "enabled", "config", "priority", "timeout", "failClosed", "safeResponse");

    public ModuleEntry {
        Objects.requireNonNull(id, "id");
        if (priority != null && (priority < 1 || priority > 99))
            throw new IllegalArgumentException("module " + id + ": priority must be 1..99");
        if (timeout != null && (timeout.isNegative() || timeout.isZero()))
            throw new IllegalArgumentException("module " + id + ": timeout must be longer than zero");
        // not copied: a problem the module's factory finds in it must still point into the file it came from
        config = config == null || config.isMissingNode() || config.isNull()
                ? JsonNodeFactory.instance.objectNode()
                : config;
    }

    /** The module {@code id} with its own settings. */
    public static ModuleEntry of(String id) {
        return new ModuleEntry(id, true, null, null, null, null, null);
    }

    /** The module {@code id} with {@code config} as its options (its factory checks them). */
    public static ModuleEntry of(String id, JsonNode config) {
        return new ModuleEntry(id, true, config, null, null, null, null);
    }

    /** The module {@code id} switched off (an agent turning an org default off). */
    public static ModuleEntry disabled(String id) {
        return new ModuleEntry(id, false, null, null, null, null, null);
    }

    /**
     * The entries of a {@code modules:} list; a missing node is no entries.
     *
     * @param where names the list in messages, e.g. {@code agent tutor}
     * @throws ConfigProblem for an entry that is malformed
     */
    public static List<ModuleEntry> parseList(JsonNode list, String where) {
        if (list == null || list.isMissingNode() || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw ConfigProblem.of(list, where + ": modules must be a list");
        }
        List<ModuleEntry> entries = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            entries.add(parse(list, i, where));
        }
        return List.copyOf(entries);
    }

    static ModuleEntry parse(JsonNode node, String where) {
        return parse(JsonNodeFactory.instance.arrayNode().add(node), 0, where);
    }

    private static ModuleEntry parse(JsonNode list, int index, String where) {
        JsonNode node = list.get(index);
        if (node.isTextual()) {
            return new ModuleEntry(nonBlank(node.asText(), list, index, where), true, null, null, null, null, null);
        }
        if (!node.isObject() || !node.path("id").isTextual()) {
            throw ConfigProblem.at(list, Integer.toString(index), where + ": a module entry needs an id");
        }
        String id = nonBlank(node.path("id").asText(), list, index, where);
        if (node.has("timeoutMs")) {
            // ignoring it would silently fall back to the module's default timeout
            throw ConfigProblem.at(
                    node,
                    "timeoutMs",
                    where + ": module " + id + ": timeoutMs is now timeout, with a unit: timeout: "
                            + node.path("timeoutMs").asText() + "ms");
        }
        ConfigSection s = ConfigSection.of(node, where + ": module " + id, KEYS);
        Duration timeout = s.duration("timeout", null);
        if (timeout != null && timeout.isZero()) throw s.invalid("timeout", "must be longer than zero");
        Integer priority = s.optionalInteger("priority", 1);
        if (priority != null && priority > 99) throw s.invalid("priority", "must be 1..99");
        return new ModuleEntry(
                id,
                s.bool("enabled", true),
                s.get("config"),
                priority,
                timeout,
                s.has("failClosed") ? s.bool("failClosed", false) : null,
                s.text("safeResponse"));
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

    private static String nonBlank(String id, JsonNode list, int index, String where) {
        if (id.isBlank()) {
            throw ConfigProblem.at(list, Integer.toString(index), where + ": a module id is blank");
        }
        return id.trim();
    }
}
