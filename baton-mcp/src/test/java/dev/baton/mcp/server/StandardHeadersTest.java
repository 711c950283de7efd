package dev.baton.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.modern.JsonRpc;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The 2026-07-28 headers mirrored from the body, checked against it. */
class StandardHeadersTest {
    static final JsonRpc.JSONRPCRequest CALL = new JsonRpc.JSONRPCRequest(
            "2.0",
            "tools/call",
            7,
            Map.of("name", "list_tasks", "_meta", Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28")));

    @Test
    void matching_headers_pass_and_the_name_may_come_base64_encoded() {
        assertThat(StandardHeaders.mismatch(headers("list_tasks"), CALL)).isEmpty();
        String encoded =
                "=?base64?" + Base64.getEncoder().encodeToString("list_tasks".getBytes(StandardCharsets.UTF_8)) + "?=";
        assertThat(StandardHeaders.mismatch(headers(encoded), CALL)).isEmpty();
    }

    @Test
    void a_missing_different_repeated_or_malformed_header_is_a_mismatch_naming_it() {
        assertThat(StandardHeaders.mismatch(headers(null), CALL))
                .hasValueSatisfying(m -> assertThat(m).contains("Mcp-Name header is required"));
        assertThat(StandardHeaders.mismatch(headers("add_task"), CALL))
                .hasValueSatisfying(m -> assertThat(m).contains("'add_task' does not match body value 'list_tasks'"));
        assertThat(StandardHeaders.mismatch(headers("=?base64?%%%?="), CALL))
                .hasValueSatisfying(m -> assertThat(m).contains("malformed"));
        Map<String, List<String>> twice =
                new LinkedHashMap<>(headers("list_tasks").byName());
        twice.put("mcp-method", List.of("tools/call", "tools/call"));
        assertThat(StandardHeaders.mismatch(new McpRequestHeaders(twice), CALL))
                .hasValueSatisfying(m -> assertThat(m).contains("Mcp-Method header came more than once"));
        Map<String, List<String>> oldVersion =
                new LinkedHashMap<>(headers("list_tasks").byName());
        oldVersion.put("mcp-protocol-version", List.of("2025-11-25"));
        assertThat(StandardHeaders.mismatch(new McpRequestHeaders(oldVersion), CALL))
                .hasValueSatisfying(m -> assertThat(m).contains("MCP-Protocol-Version"));
    }

    private static McpRequestHeaders headers(String name) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("MCP-Protocol-Version", List.of("2026-07-28"));
        headers.put("Mcp-Method", List.of("tools/call"));
        if (name != null) headers.put("Mcp-Name", List.of(name));
        return new McpRequestHeaders(headers);
    }
}
