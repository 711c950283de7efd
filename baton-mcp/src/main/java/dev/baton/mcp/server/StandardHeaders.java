package dev.baton.mcp.server;

import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.transport.McpHeaderDecoder;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The request headers the 2026-07-28 HTTP binding mirrors from the body — {@code MCP-Protocol-Version} (the
 * {@code _meta} version), {@code Mcp-Method} (the method) and {@code Mcp-Name} (the tool's name for
 * {@code tools/call}, Base64-sentinel encoded when it is not plain ASCII) — checked against it: a proxy that routes
 * or rate-limits by a header must see what the server runs, so a missing, repeated, malformed or different header is a
 * {@code HeaderMismatch} (-32020, HTTP 400). {@code Mcp-Param-*} headers are checked by the SDK's tools feature for
 * the tools that declare them (Baton's declare none).
 */
final class StandardHeaders {
    static final String METHOD = "Mcp-Method";
    static final String NAME = "Mcp-Name";
    static final String VERSION = "MCP-Protocol-Version";

    private StandardHeaders() {}

    /** Why the headers do not match the request; empty when they do. */
    static Optional<String> mismatch(McpRequestHeaders headers, JsonRpc.JSONRPCRequest request) {
        Optional<String> method = compare(headers, METHOD, request.method(), false);
        if (method.isPresent()) return method;
        String version = metaVersion(request.params());
        if (version != null) {
            Optional<String> versions = compare(headers, VERSION, version, false);
            if (versions.isPresent()) return versions;
        }
        String name = primitiveName(request);
        return name == null ? Optional.empty() : compare(headers, NAME, name, true);
    }

    private static Optional<String> compare(McpRequestHeaders headers, String header, String body, boolean encoded) {
        List<String> values = headers.all(header);
        if (values.isEmpty()) return Optional.of("Header mismatch: the " + header + " header is required");
        if (values.size() > 1) return Optional.of("Header mismatch: the " + header + " header came more than once");
        String value = encoded ? McpHeaderDecoder.decodeValue(values.getFirst()) : values.getFirst();
        if (value == null) return Optional.of("Header mismatch: the " + header + " header is malformed");
        if (!value.equals(body))
            return Optional.of("Header mismatch: " + header + " header value '" + printable(value)
                    + "' does not match body value '" + printable(body) + "'");
        return Optional.empty();
    }

    /** {@code _meta}'s protocol version, null without one. */
    static String metaVersion(Object params) {
        return params instanceof Map<?, ?> map
                        && map.get("_meta") instanceof Map<?, ?> meta
                        && meta.get(McpSchema.MetaKeys.PROTOCOL_VERSION) instanceof String version
                ? version
                : null;
    }

    /** What {@code Mcp-Name} mirrors: the name of the tool or prompt, the URI of the resource; null otherwise. */
    private static String primitiveName(JsonRpc.JSONRPCRequest request) {
        String key = switch (request.method()) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            default -> null;
        };
        return key != null && request.params() instanceof Map<?, ?> params && params.get(key) instanceof String name
                ? name
                : null;
    }

    /** A value as it may be quoted back: at most 100 characters, control characters replaced. */
    private static String printable(String value) {
        String cut = value.length() > 100 ? value.substring(0, 100) + "…" : value;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
