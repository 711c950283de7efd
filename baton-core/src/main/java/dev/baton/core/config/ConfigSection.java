package dev.baton.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One mapping of a configuration file (a section of baton.yaml, an agent file, a module's config), read through the
 * keys its reader declares. The declaration is the only list of a section's keys: a key in the file that is not
 * declared is an error ({@link ConfigProblem#unknownKey}), and reading a key that was not declared is a bug caught at
 * once. Values of the wrong type or out of range are errors too, never a silent default.
 *
 * <pre>{@code
 * ConfigSection s = ConfigSection.of(root.path("rateLimits"), "rateLimits", "enabled", "perUser", "perTenant");
 * boolean enabled = s.bool("enabled", true);
 * int perMinute = s.section("perUser", "perMinute", "perHour").integer("perMinute", 20, 0);
 * }</pre>
 */
public final class ConfigSection {

    private final JsonNode node;
    private final String path;
    private final Set<String> keys;

    private ConfigSection(JsonNode node, String path, Set<String> keys) {
        this.node = node;
        this.path = path;
        this.keys = keys;
    }

    /**
     * Reads a mapping whose keys must all be among {@code keys}.
     *
     * @param node the mapping; missing or null reads as empty
     * @param path its name in messages, e.g. {@code rateLimits.perUser}
     * @throws ConfigProblem when the node is not a mapping or has a key not among {@code keys}
     */
    public static ConfigSection of(JsonNode node, String path, String... keys) {
        return of(node, path, List.of(keys));
    }

    /** Like {@link #of(JsonNode, String, String...)}. */
    public static ConfigSection of(JsonNode node, String path, Collection<String> keys) {
        ConfigSection section = part(node, path, keys);
        checkKeys(section.node, path, section.keys);
        return section;
    }

    /**
     * Reads some keys of a mapping other readers share (an agent's {@code limits} hold turn and session limits): only
     * these keys can be read, and the mapping's owner checks for unknown ones with the union of its readers' keys.
     */
    public static ConfigSection part(JsonNode node, String path, Collection<String> keys) {
        JsonNode n = absent(node) ? MissingNode.getInstance() : node;
        if (!n.isMissingNode() && !n.isObject()) throw notAMapping(n, path);
        return new ConfigSection(n, path, Set.copyOf(keys));
    }

    /** Fails on the first key of {@code node} (a mapping, or absent) that is not among {@code known}. */
    public static void checkKeys(JsonNode node, String path, Collection<String> known) {
        if (absent(node)) return;
        if (!node.isObject()) throw notAMapping(node, path);
        Set<String> knownSet = new LinkedHashSet<>(known);
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!knownSet.contains(name)) throw ConfigProblem.unknownKey(node, path, name, knownSet);
        }
    }

    /** The union of several readers' keys, for {@link #checkKeys}. */
    @SafeVarargs
    public static Set<String> union(Collection<String>... keySets) {
        Set<String> all = new LinkedHashSet<>();
        for (Collection<String> k : keySets) all.addAll(k);
        return Set.copyOf(all);
    }

    /** True when the section is absent or null in the file. */
    public boolean isEmpty() {
        return node.isMissingNode() || node.size() == 0;
    }

    /** True when the file sets {@code key} to something other than null. */
    public boolean has(String key) {
        return !absent(get(key));
    }

    /** The raw value of a declared key; missing when absent. */
    public JsonNode get(String key) {
        if (!keys.contains(key))
            throw new IllegalStateException("'" + key + "' is not a declared key of " + describe() + ": " + keys);
        return node.path(key);
    }

    /** The mapping itself (missing when absent). */
    public JsonNode node() {
        return node;
    }

    /** Its name in messages. */
    public String path() {
        return path;
    }

    /** The declared keys. */
    public Set<String> keys() {
        return keys;
    }

    /** A nested mapping, with its own keys. */
    public ConfigSection section(String key, String... nestedKeys) {
        return section(key, List.of(nestedKeys));
    }

    /** A nested mapping, with its own keys. */
    public ConfigSection section(String key, Collection<String> nestedKeys) {
        JsonNode v = get(key);
        if (!absent(v) && !v.isObject()) throw invalid(key, "must be a mapping of keys to values, not a " + kind(v));
        return of(v, qualified(key), nestedKeys);
    }

    /** A scalar as text, or null when absent. */
    public String text(String key) {
        JsonNode v = get(key);
        if (absent(v)) return null;
        if (!v.isValueNode()) throw invalid(key, "must be a single value, not a " + kind(v));
        return v.asText();
    }

    /** A scalar as text, or {@code fallback} when absent or blank. */
    public String text(String key, String fallback) {
        String v = text(key);
        return v == null || v.isBlank() ? fallback : v;
    }

    /** {@code true} or {@code false}. */
    public boolean bool(String key, boolean fallback) {
        JsonNode v = get(key);
        if (absent(v)) return fallback;
        if (v.isBoolean()) return v.booleanValue();
        String s = v.isTextual() ? v.asText().trim().toLowerCase(Locale.ROOT) : "";
        if (s.equals("true") || s.equals("false")) return Boolean.parseBoolean(s);
        throw invalid(key, "must be true or false, got " + shown(v));
    }

    /** A whole number. */
    public int integer(String key, int fallback) {
        return integer(key, fallback, Integer.MIN_VALUE);
    }

    /** A whole number of at least {@code min}. */
    public int integer(String key, int fallback, int min) {
        Integer v = optionalInteger(key, min);
        return v == null ? fallback : v;
    }

    /** A whole number of at least {@code min}, or null when absent. */
    public Integer optionalInteger(String key, int min) {
        JsonNode v = get(key);
        if (absent(v)) return null;
        Integer parsed = null;
        if (v.isIntegralNumber() && v.canConvertToInt()) parsed = v.intValue();
        else if (v.isTextual()) {
            try {
                parsed = Integer.valueOf(v.asText().trim());
            } catch (NumberFormatException e) {
                parsed = null;
            }
        }
        String wanted = min == Integer.MIN_VALUE ? "a whole number" : "a whole number >= " + min;
        if (parsed == null || parsed < min) throw invalid(key, "must be " + wanted + ", got " + shown(v));
        return parsed;
    }

    /** A number such as {@code 1.5}. */
    public double number(String key, double fallback) {
        BigDecimal v = decimal(key);
        return v == null ? fallback : v.doubleValue();
    }

    /** A number, exactly as written (prices, budgets), or null when absent. */
    public BigDecimal decimal(String key) {
        JsonNode v = get(key);
        if (absent(v)) return null;
        if (v.isValueNode() && !v.isBoolean()) {
            try {
                // through the text, so 0.15 stays exactly 0.15 rather than the nearest double
                return new BigDecimal(v.asText().trim());
            } catch (NumberFormatException e) {
                // falls through to the message
            }
        }
        throw invalid(key, "must be a number, got " + shown(v));
    }

    /** A duration as {@link Durations} reads it ({@code 250ms}, {@code 30s}, {@code PT30S}), zero included. */
    public Duration duration(String key, Duration fallback) {
        JsonNode v = get(key);
        if (absent(v)) return fallback;
        if (!v.isValueNode()) throw invalid(key, "must be a duration such as 500ms or 30s, not a " + kind(v));
        try {
            return Durations.parse(v.asText(), key);
        } catch (IllegalArgumentException e) {
            throw ConfigProblem.at(node, key, path.isEmpty() ? e.getMessage() : path + ": " + e.getMessage());
        }
    }

    /** A list of values; a single value counts as a list of one; absent is empty. */
    public List<String> strings(String key) {
        JsonNode v = get(key);
        List<String> out = new ArrayList<>();
        if (absent(v)) return out;
        if (v.isValueNode()) {
            out.add(v.asText());
            return out;
        }
        if (!v.isArray()) throw invalid(key, "must be a list, not a " + kind(v));
        for (int i = 0; i < v.size(); i++) {
            JsonNode item = v.get(i);
            if (!item.isValueNode() || item.isNull())
                throw ConfigProblem.at(
                        v,
                        Integer.toString(i),
                        qualified(key) + "[" + i + "] must be a single value, not a " + kind(item));
            out.add(item.asText());
        }
        return out;
    }

    /** A problem with the value of {@code key}: "{@code <path>.<key> <problem>}". */
    public ConfigProblem invalid(String key, String problem) {
        return ConfigProblem.at(node, key, qualified(key) + " " + problem);
    }

    /**
     * {@code key}'s full name: {@code rateLimits.perUser.perMinute} under a path of keys, {@code agent tutor: module
     * guard: timeout} under a path that is a description.
     */
    public String qualified(String key) {
        if (path.isEmpty()) return key;
        return path.contains(" ") ? path + ": " + key : path + "." + key;
    }

    private String describe() {
        return path.isEmpty() ? "the top level" : path;
    }

    private static ConfigProblem notAMapping(JsonNode node, String path) {
        return ConfigProblem.of(node, path + " must be a mapping of keys to values, not a " + kind(node));
    }

    static boolean absent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    private static String kind(JsonNode node) {
        if (node.isObject()) return "mapping";
        if (node.isArray()) return "list";
        if (node.isNumber()) return "number";
        if (node.isBoolean()) return "boolean";
        return "text";
    }

    private static String shown(JsonNode v) {
        return v.isValueNode() ? "'" + v.asText() + "'" : "a " + kind(v);
    }
}
