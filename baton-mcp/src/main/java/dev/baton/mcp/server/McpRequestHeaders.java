package dev.baton.mcp.server;

import io.modelcontextprotocol.server.transport.HeaderAccessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP headers of one POST to {@code /mcp}, by lower-case name, each with every value it came with: the protocol
 * reads some of them ({@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name},
 * {@code Mcp-Param-*}) and must tell a header sent twice from one sent once.
 */
public record McpRequestHeaders(Map<String, List<String>> byName) {
    static final String SESSION_ID = "mcp-session-id";
    static final String PROTOCOL_VERSION = "mcp-protocol-version";

    public McpRequestHeaders {
        Map<String, List<String>> lower = new LinkedHashMap<>();
        byName.forEach((name, values) -> lower.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                .addAll(values));
        lower.replaceAll((name, values) -> List.copyOf(values));
        byName = Map.copyOf(lower);
    }

    /** No headers at all. */
    public static final McpRequestHeaders NONE = new McpRequestHeaders(Map.of());

    /** Every value of the header {@code name} (any case), in the order they came; empty when absent. */
    public List<String> all(String name) {
        return byName.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    /** The header's value when it came exactly once; empty when absent (or sent more than once). */
    public Optional<String> single(String name) {
        List<String> values = all(name);
        return values.size() == 1 ? Optional.of(values.getFirst()) : Optional.empty();
    }

    /** {@code Mcp-Session-Id}, null when absent or blank. */
    String sessionId() {
        return single(SESSION_ID).filter(s -> !s.isBlank()).orElse(null);
    }

    /** {@code MCP-Protocol-Version}, null when absent. */
    String protocolVersion() {
        return single(PROTOCOL_VERSION).orElse(null);
    }

    /** The same headers for the SDK's header decoding ({@code Mcp-Name}, {@code Mcp-Param-*}). */
    HeaderAccessor accessor() {
        return new HeaderAccessor() {
            @Override
            public List<String> getHeader(String name) {
                return all(name);
            }

            @Override
            public List<String> getHeaderNames() {
                return List.copyOf(byName.keySet());
            }
        };
    }
}
