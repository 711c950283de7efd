package dev.baton.modules.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a built-in module's {@code config:} object. Unknown keys are errors, so a typo does not silently disable a
 * guard. (Priority, timeout and failure policy are not module config: they are set on the agent's module entry —
 * {@code priority}, {@code timeoutMs}, {@code failClosed}, {@code safeResponse} — for every module alike.)
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
            throw new IllegalArgumentException(module + ": config must be an object");
        }
        for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!ownKeys.contains(key)) {
                throw new IllegalArgumentException(module + ": unknown config key '" + key + "'");
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

    public Duration duration(String key, Duration fallback) {
        JsonNode v = node.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return fallback;
        }
        Duration d = parseDuration(v.asText());
        if (d == null || d.isNegative() || d.isZero()) {
            throw invalid(key, "must be a positive duration like 500ms, 2s or PT2S");
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

    public IllegalArgumentException invalid(String key, String problem) {
        return new IllegalArgumentException(module + ": config '" + key + "' " + problem);
    }

    /** {@code 250ms}, {@code 2s}, {@code 1m}, ISO-8601 or a number of milliseconds; null when unreadable. */
    static Duration parseDuration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("p")) {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            }
            if (s.endsWith("ms")) {
                return Duration.ofMillis(
                        Long.parseLong(s.substring(0, s.length() - 2).trim()));
            }
            if (s.endsWith("s")) {
                return Duration.ofMillis(Math.round(
                        Double.parseDouble(s.substring(0, s.length() - 1).trim()) * 1000));
            }
            if (s.endsWith("m")) {
                return Duration.ofMinutes(
                        Long.parseLong(s.substring(0, s.length() - 1).trim()));
            }
            return Duration.ofMillis(Long.parseLong(s));
        } catch (NumberFormatException | DateTimeParseException e) {
            return null;
        }
    }
}
