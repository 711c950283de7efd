package dev.baton.mcp.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * Between the SDK's plain Java values (maps, lists, strings, numbers: what its Jackson 3 mapper produced) and the
 * Jackson 2 trees the rest of Baton works with. The two never share a mapper, so values cross as plain data.
 */
public final class SdkJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

    private SdkJson() {}

    /** A tree of a value the SDK parsed (a map, a list, a scalar); {@code null} becomes JSON null. */
    public static JsonNode tree(Object value) {
        return value == null ? NullNode.getInstance() : MAPPER.valueToTree(value);
    }

    /** An object tree as the map the SDK sends. */
    public static Map<String, Object> map(JsonNode object) {
        return object == null || object.isNull() ? Map.of() : MAPPER.convertValue(object, MAP);
    }

    /** The hints a server set, without the ones it left out (so an absent hint and a null one look the same). */
    public static JsonNode annotations(McpSchema.ToolAnnotations annotations) {
        if (annotations == null) return NullNode.getInstance();
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (annotations.title() != null) out.put("title", annotations.title());
        if (annotations.readOnlyHint() != null) out.put("readOnlyHint", annotations.readOnlyHint());
        if (annotations.destructiveHint() != null) out.put("destructiveHint", annotations.destructiveHint());
        if (annotations.idempotentHint() != null) out.put("idempotentHint", annotations.idempotentHint());
        if (annotations.openWorldHint() != null) out.put("openWorldHint", annotations.openWorldHint());
        return out.isEmpty() ? NullNode.getInstance() : out;
    }
}
