package dev.baton.runtime.flag;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * baton.yaml's {@code flags:} section and the {@code FF_<NAME>} environment variables (which win, as in the learning
 * design's {@code FF_AGENT_ORCHESTRATOR_V1=true}): each flag is {@code true}, {@code false} or a percentage of users
 * ({@code 25%} or {@code 25}).
 *
 * <pre>{@code
 * flags:
 *   agent_orchestrator_v1: true
 *   new_history_window: 25%
 * }</pre>
 *
 * @param configured from baton.yaml, name to percentage
 * @param environment from {@code FF_} variables, name (lower case) to percentage
 */
public record FlagSettings(Map<String, Integer> configured, Map<String, Integer> environment) {
    public static final String SECTION = "flags";
    public static final String ENV_PREFIX = "FF_";
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    public static final FlagSettings NONE = new FlagSettings(Map.of(), Map.of());

    public FlagSettings {
        configured = Map.copyOf(configured);
        environment = Map.copyOf(environment);
    }

    /** These settings with {@code name} on for {@code percentage} of users (100: everyone, 0: no one). */
    public FlagSettings withFlag(String name, int percentage) {
        if (!validName(name))
            throw new IllegalArgumentException(
                    "'" + name + "' is not a flag name: use a-z, 0-9 and '_', starting with a letter");
        if (percentage < 0 || percentage > 100)
            throw new IllegalArgumentException(name + " must be a percentage from 0 to 100, got " + percentage);
        Map<String, Integer> flags = new LinkedHashMap<>(configured);
        flags.put(name, percentage);
        return new FlagSettings(flags, environment);
    }

    /**
     * These settings with their {@code FF_<NAME>} overrides read from {@code env} instead.
     *
     * @throws IllegalArgumentException naming a variable whose value is not true, false or a percentage
     */
    public FlagSettings withEnvironment(Map<String, String> env) {
        return new FlagSettings(configured, fromEnvironment(env));
    }

    /**
     * Reads baton.yaml's section alone, with no environment overrides (see {@link #withEnvironment}).
     *
     * @throws IllegalArgumentException ({@link ConfigProblem} for the file) naming the flag whose name or value is wrong
     */
    public static FlagSettings from(JsonNode section) {
        return from(section, Map.of());
    }

    /**
     * @throws IllegalArgumentException ({@link ConfigProblem} for the file) naming the flag whose name or value is wrong
     */
    public static FlagSettings from(JsonNode section, Map<String, String> env) {
        if (!section.isMissingNode() && !section.isNull() && !section.isObject())
            throw ConfigProblem.of(
                    section, SECTION + " must be a mapping of flag names to true, false or a percentage");
        List<String> names = new ArrayList<>();
        section.fieldNames().forEachRemaining(names::add);
        ConfigSection s = ConfigSection.of(section, SECTION, names);
        Map<String, Integer> configured = new LinkedHashMap<>();
        for (String name : names) {
            if (!NAME.matcher(name).matches())
                throw s.invalid(name, "is not a flag name: use a-z, 0-9 and '_', starting with a letter");
            Integer pct = percentage(s.get(name).asText());
            if (pct == null || !s.get(name).isValueNode())
                throw s.invalid(name, "must be true, false or a percentage such as 25%, got " + s.get(name));
            configured.put(name, pct);
        }
        return new FlagSettings(configured, fromEnvironment(env));
    }

    private static Map<String, Integer> fromEnvironment(Map<String, String> env) {
        Map<String, Integer> fromEnv = new LinkedHashMap<>();
        env.forEach((key, value) -> {
            if (!key.startsWith(ENV_PREFIX) || key.length() == ENV_PREFIX.length()) return;
            String name = key.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
            if (!NAME.matcher(name).matches()) return;
            Integer pct = percentage(value);
            if (pct == null)
                throw new IllegalArgumentException(
                        key + " must be true, false or a percentage such as 25%, got '" + value + "'");
            fromEnv.put(name, pct);
        });
        return fromEnv;
    }

    /** {@code true} is 100, {@code false} 0, {@code 25%} or {@code 25} is 25; null for anything else. */
    public static Integer percentage(String text) {
        if (text == null) return null;
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true") || t.equals("on")) return 100;
        if (t.equals("false") || t.equals("off")) return 0;
        if (t.endsWith("%")) t = t.substring(0, t.length() - 1).trim();
        try {
            int pct = Integer.parseInt(t);
            return pct >= 0 && pct <= 100 ? pct : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether {@code name} can name a flag. */
    public static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }
}
