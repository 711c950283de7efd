package dev.baton.modules.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a built-in module's {@code config:} object. Unknown keys are errors, so a typo does not silently disable a
 * guard. (Priority, timeout and failure policy are not module config: they are set on the agent's module entry —
 * {@code priority}, {@code timeout}, {@code failClosed}, {@code safeResponse} — for every module alike.)
 */
public final class ModuleConfig {

    private final String module;
    private final JsonNode node;

    private ModuleConfig(String module, JsonNode node) {
        this.module = module;
        this.node = node;
    }

    /**
     * @param module the module's id, for error messages
     * @param node the {@code config:} object; null or missing for none
     * @param ownKeys the keys the module understands
     * @throws IllegalArgumentException when the config is not an object or has an unknown key
     */
    public static ModuleConfig of(String module, JsonNode node, Set<String> ownKeys) {
        Objects.requireNonNull(module, "module");
        JsonNode n = node == null || node.isMissingNode() || node.isNull()
                ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                : node;
        if (!n.isObject()) {
            throw ConfigProblem.of(n, module + ": config must be an object");
        }
        for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!ownKeys.contains(key)) {
                throw ConfigProblem.unknownKey(n, module + " config", key, ownKeys);
            }
        }
        return new ModuleConfig(module, n);
    }

    public JsonNode node() {
        return node;
    }

    public String string(String key, String fallback) {
        JsonNode v = node.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return fallback;
        }
        if (!v.isValueNode()) {
            throw invalid(key, "must be a string");
        }
        return v.asText();
    }

    public String requiredString(String key) {
        String v = string(key, null);
        if (v == null || v.isBlank()) {
            throw invalid(key, "is required");
        }
        return v;
    }

    public boolean bool(String key, boolean fallback) {
        JsonNode v = node.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return fallback;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        String s = v.asText().trim().toLowerCase(Locale.ROOT);
        if (s.equals("true") || s.equals("false")) {
            return Boolean.parseBoolean(s);
        }
        throw invalid(key, "must be true or false");
    }

    public int integer(String key, int fallback) {
        JsonNode v = node.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return fallback;
        }
        if (v.canConvertToInt() && v.isIntegralNumber()) {
            return v.intValue();
        }
        try {
            return Integer.parseInt(v.asText().trim());
        } catch (NumberFormatException e) {
            throw invalid(key, "must be a whole number");
        }
    }

    /** A positive duration as {@link Durations} reads it, e.g. {@code 500ms}, {@code 2s} or {@code PT2S}. */
    public Duration duration(String key, Duration fallback) {
        JsonNode v = node.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return fallback;
        }
        if (!v.isValueNode()) {
            throw invalid(key, "must be a duration such as 500ms or 2s");
        }
        Duration d;
        try {
            d = Durations.parse(v.asText(), key);
        } catch (IllegalArgumentException e) {
            throw ConfigProblem.at(node, key, module + ": config " + e.getMessage());
        }
        if (d.isZero()) {
            throw invalid(key, "must be longer than zero");
        }
        return d;
    }

    /** A list of strings; a single string counts as a list of one. */
    public List<String> strings(String key) {
        JsonNode v = node.path(key);
        List<String> out = new ArrayList<>();
        if (v.isMissingNode() || v.isNull()) {
            return out;
        }
        if (v.isValueNode()) {
            out.add(v.asText());
            return out;
        }
        if (!v.isArray()) {
            throw invalid(key, "must be a list");
        }
        v.forEach(item -> {
            if (!item.isValueNode()) {
                throw invalid(key, "must be a list of strings");
            }
            out.add(item.asText());
        });
        return out;
    }

    /** A problem with the value of {@code key}, pointing at it in the file it came from. */
    public ConfigProblem invalid(String key, String problem) {
        return ConfigProblem.at(node, key, module + ": config '" + key + "' " + problem);
    }
}
