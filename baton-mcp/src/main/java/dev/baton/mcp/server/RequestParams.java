package dev.baton.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;

/**
 * What the {@code params} of a request must look like before the SDK sees them: MCP's params are always an object,
 * and {@code initialize} and {@code tools/call} need their fields to be of the types the spec names. The SDK would
 * fail on anything else with its own exception text (class names, a NullPointerException) — and, for
 * {@code initialize}, only after a session was started; this answers it instead with one sentence for a JSON-RPC
 * "invalid params" error (-32602), before anything is started or called.
 */
final class RequestParams {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestParams() {}

    /** Why the request's params are not acceptable; empty when they are. */
    static Optional<String> problem(McpSchema.JSONRPCRequest request) {
        JsonNode params = request.params() == null ? null : JSON.valueToTree(request.params());
        boolean absent = params == null || params.isNull();
        if (!absent && !params.isObject()) return Optional.of("params must be an object");
        return switch (request.method()) {
            case McpSchema.METHOD_INITIALIZE -> initialize(absent ? null : params);
            case McpSchema.METHOD_TOOLS_CALL -> toolsCall(absent ? null : params);
            default -> Optional.empty();
        };
    }

    private static Optional<String> initialize(JsonNode params) {
        String shape = "initialize needs params {protocolVersion: string, capabilities: object, clientInfo: {name:"
                + " string, version: string}}";
        if (params == null) return Optional.of(shape);
        if (!params.path("protocolVersion").isTextual()) return Optional.of(shape + ": protocolVersion is missing");
        if (!params.path("capabilities").isObject()) return Optional.of(shape + ": capabilities is missing");
        JsonNode client = params.path("clientInfo");
        if (!client.isObject() || !client.path("name").isTextual())
            return Optional.of(shape + ": clientInfo.name is missing");
        return Optional.empty();
    }

    private static Optional<String> toolsCall(JsonNode params) {
        if (params == null) return Optional.of("tools/call needs params {name: string, arguments: object}");
        if (!params.path("name").isTextual() || params.path("name").asText().isBlank())
            return Optional.of("tools/call needs the name of a tool (a string)");
        JsonNode arguments = params.path("arguments");
        if (!arguments.isMissingNode() && !arguments.isNull() && !arguments.isObject())
            return Optional.of("tools/call arguments must be an object");
        JsonNode meta = params.path("_meta");
        if (!meta.isMissingNode() && !meta.isNull() && !meta.isObject())
            return Optional.of("tools/call _meta must be an object");
        return Optional.empty();
    }
}
