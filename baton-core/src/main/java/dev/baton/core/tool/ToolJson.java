package dev.baton.core.tool;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.json.PooledJsonFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The JSON handling tool calls need: strict parsing of what the model sent and a canonical form for comparing. */
public final class ToolJson {
    // duplicate keys and trailing garbage make the model's intent ambiguous, so they count as invalid JSON
    private static final JsonMapper MAPPER = JsonMapper.builder(PooledJsonFactory.create())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ToolJson() {}

    /** Parses the model's argument text. */
    public static JsonNode parse(String json) throws JsonProcessingException {
        return MAPPER.readTree(json);
    }

    /**
     * The arguments as a tool_call event shows them: the parsed JSON, or a string node holding the raw text when it
     * does not parse.
     */
    public static JsonNode argumentsForDisplay(String argumentsJson) {
        try {
            JsonNode node = parse(argumentsJson);
            return node == null || node.isMissingNode() ? JsonNodeFactory.instance.textNode(argumentsJson) : node;
        } catch (JsonProcessingException e) {
            return JsonNodeFactory.instance.textNode(argumentsJson);
        }
    }

    /** JSON text with object keys sorted at every level, so equal arguments give equal text whatever their order. */
    public static String canonical(JsonNode node) {
        return sorted(node).toString();
    }

    /** The tool message content for an error: {"error":{"code":"...","message":"..."}}. */
    public static String errorContent(ToolError error) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.putObject("error").put("code", error.code()).put("message", error.message());
        return root.toString();
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                names.add(it.next().getKey());
            }
            names.sort(null);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (String name : names) {
                copy.set(name, sorted(node.get(name)));
            }
            return copy;
        }
        if (node.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode(node.size());
            node.forEach(element -> copy.add(sorted(element)));
            return copy;
        }
        return node;
    }
}
