package dev.baton.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.runtime.config.ConfigException;
import java.util.List;
import java.util.Map;

/**
 * The todo chatbot design's (004) environment names, honoured as aliases of Baton's own settings so its deployment
 * files work unchanged. An alias fills a setting only when baton.yaml leaves it out; Baton's own variables
 * (BATON_MODEL) still win over both.
 *
 * <table>
 *   <tr><th>design</th><th>Baton</th></tr>
 *   <tr><td>MAX_CONVERSATION_HISTORY</td><td>limits.historyMessages</td></tr>
 *   <tr><td>MAX_TOOL_CALLS_PER_REQUEST</td><td>limits.maxToolCallsPerTurn</td></tr>
 *   <tr><td>OPENAI_TIMEOUT_SECONDS</td><td>limits.llmTimeout</td></tr>
 *   <tr><td>OPENAI_MODEL</td><td>models.default (as openai:&lt;model&gt;)</td></tr>
 *   <tr><td>OPENAI_TEMPERATURE</td><td>models.temperature (agents that set no temperature of their own)</td></tr>
 * </table>
 */
final class EnvAliases {

    /** The design's variable names this reads. */
    private static final List<String> ALIASES = List.of(
            "MAX_CONVERSATION_HISTORY",
            "MAX_TOOL_CALLS_PER_REQUEST",
            "OPENAI_TIMEOUT_SECONDS",
            "OPENAI_MODEL",
            "OPENAI_TEMPERATURE");

    private EnvAliases() {}

    /** {@code root} with the aliases set in {@code env} filled in where it has no value; {@code root} is not changed. */
    static JsonNode apply(JsonNode root, Map<String, String> env) {
        // untouched when no alias is set: the file's line numbers are found by node identity, lost in a copy
        if (ALIASES.stream().noneMatch(name -> present(env.get(name)))) return root;
        ObjectNode tree = root.isObject() ? ((ObjectNode) root).deepCopy() : JsonNodeFactory.instance.objectNode();
        ObjectNode limits = section(tree, "limits");
        ObjectNode models = section(tree, "models");
        whole(env, "MAX_CONVERSATION_HISTORY", 0, 1_000).ifPresent(n -> fill(limits, "historyMessages", n));
        whole(env, "MAX_TOOL_CALLS_PER_REQUEST", 0, 1_000).ifPresent(n -> fill(limits, "maxToolCallsPerTurn", n));
        whole(env, "OPENAI_TIMEOUT_SECONDS", 1, 3_600).ifPresent(n -> fill(limits, "llmTimeout", n + "s"));
        String model = env.get("OPENAI_MODEL");
        // the design sets it next to its OpenAI key: without one there is no OpenAI to ask, and the simulator stays
        boolean openAi = present(env.get("OPENAI_API_KEY"))
                || present(env.get("OPENAI_BASE_URL"))
                || models.path("openai").hasNonNull("apiKey")
                || models.path("openai").hasNonNull("baseUrl");
        if (present(model) && openAi && !models.has("default")) {
            models.put("default", model.contains(":") ? model.strip() : "openai:" + model.strip());
        }
        String temperature = env.get("OPENAI_TEMPERATURE");
        if (temperature != null && !temperature.isBlank() && !models.has("temperature")) {
            double t = number(temperature, "OPENAI_TEMPERATURE");
            if (t < 0 || t > 2) throw new ConfigException("OPENAI_TEMPERATURE must be 0-2, got " + temperature);
            models.put("temperature", t);
        }
        if (limits.isEmpty()) tree.remove("limits");
        if (models.isEmpty()) tree.remove("models");
        return tree;
    }

    private static java.util.Optional<Integer> whole(Map<String, String> env, String name, int min, int max) {
        String value = env.get(name);
        if (value == null || value.isBlank()) return java.util.Optional.empty();
        try {
            int n = Integer.parseInt(value.strip());
            if (n < min || n > max) throw new NumberFormatException();
            return java.util.Optional.of(n);
        } catch (NumberFormatException e) {
            throw new ConfigException(
                    name + " must be a whole number from " + min + " to " + max + ", got '" + value + "'");
        }
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }

    private static double number(String value, String name) {
        try {
            return Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            throw new ConfigException(name + " must be a number, got '" + value + "'");
        }
    }

    private static void fill(ObjectNode section, String field, Object value) {
        if (section.has(field)) return;
        if (value instanceof Integer n) section.put(field, n);
        else section.put(field, value.toString());
    }

    private static ObjectNode section(ObjectNode tree, String name) {
        JsonNode existing = tree.get(name);
        if (existing instanceof ObjectNode object) return object;
        if (existing != null && !existing.isNull()) throw new ConfigException(name + " must be a map");
        return tree.putObject(name);
    }
}
