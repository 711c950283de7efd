package dev.baton.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A configuration value Baton cannot use: an unknown key, a wrong type or a bad value. It names the mapping (or list)
 * that holds the value and the key (or index) within it, so that whoever read the file can point at its line; the
 * message alone still says which setting it is.
 */
public final class ConfigProblem extends IllegalArgumentException {

    private final transient JsonNode parent;
    private final String key;
    private final transient JsonNode value;
    private final List<String> knownKeys;

    private ConfigProblem(JsonNode parent, String key, JsonNode value, String message, List<String> knownKeys) {
        super(message);
        this.parent = parent;
        this.key = key;
        this.value = value;
        this.knownKeys = knownKeys;
    }

    /**
     * A key the mapping's reader does not know.
     *
     * @param section the mapping's path, e.g. {@code rateLimits.perUser}; empty for a file's top level
     * @param known the keys the reader knows, for a suggestion
     */
    public static ConfigProblem unknownKey(JsonNode mapping, String section, String key, Set<String> known) {
        String where = section.isEmpty() ? "" : " in " + section;
        return new ConfigProblem(
                mapping, key, null, "unknown key '" + key + "'" + where, List.copyOf(new TreeSet<>(known)));
    }

    /**
     * A value that is there but wrong.
     *
     * @param parent the mapping or list holding it
     * @param key its key, or its index in a list
     * @param message the whole sentence, naming the setting, e.g. {@code rateLimits.perUser.perMinute must be a whole
     *     number >= 0, got 'many'}
     */
    public static ConfigProblem at(JsonNode parent, String key, String message) {
        return new ConfigProblem(parent, key, null, message, List.of());
    }

    /** A value that is wrong as a whole (a section that is not a mapping), where its parent is not at hand. */
    public static ConfigProblem of(JsonNode value, String message) {
        return new ConfigProblem(null, null, value, message, List.of());
    }

    /** The mapping or list that holds the bad value; null when not known. */
    public JsonNode parent() {
        return parent;
    }

    /** The key (or list index) of the bad value within {@link #parent()}. */
    public String key() {
        return key;
    }

    /** The bad value itself when its parent is not known (then {@link #parent()} is null). */
    public JsonNode value() {
        return value;
    }

    /** True for an unknown key: {@link #knownKeys()} then lists the keys that would have been understood. */
    public boolean isUnknownKey() {
        return !knownKeys.isEmpty();
    }

    public List<String> knownKeys() {
        return knownKeys;
    }
}
