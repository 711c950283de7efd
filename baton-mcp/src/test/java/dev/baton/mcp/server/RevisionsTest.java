package dev.baton.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which of its two ways {@code /mcp} answers a POST: the 2026-07-28 revision's, or the 2025 handshake's. */
class RevisionsTest {
    static final String META = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @Test
    void a_request_whose_meta_names_a_version_is_stateless_even_with_a_session() {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":" + META + "}}";

        assertThat(Revisions.stateless(McpRequestHeaders.NONE, body)).isTrue();
        assertThat(Revisions.stateless(headers("Mcp-Session-Id", "s1"), body)).isTrue();
    }

    @Test
    void initialize_and_anything_with_a_session_go_through_the_handshake() {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

        assertThat(Revisions.stateless(McpRequestHeaders.NONE, initialize)).isFalse();
        assertThat(Revisions.stateless(headers("MCP-Protocol-Version", "2026-07-28"), initialize))
                .isFalse();
        assertThat(Revisions.stateless(headers("Mcp-Session-Id", "s1"), list)).isFalse();
        assertThat(Revisions.stateless(McpRequestHeaders.NONE, list)).isFalse();
        assertThat(Revisions.stateless(headers("MCP-Protocol-Version", "2025-06-18"), list))
                .isFalse();
    }

    @Test
    void without_meta_a_version_header_of_no_handshake_revision_or_discover_is_stateless() {
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";
        String discover = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"server/discover\"}";

        assertThat(Revisions.stateless(headers("MCP-Protocol-Version", "2026-07-28"), list))
                .isTrue();
        assertThat(Revisions.stateless(headers("mcp-protocol-version", "2099-01-01"), list))
                .isTrue();
        assertThat(Revisions.stateless(McpRequestHeaders.NONE, discover)).isTrue();
    }

    @Test
    void a_body_that_is_not_a_json_object_is_left_to_the_handshake_which_refuses_it() {
        assertThat(Revisions.stateless(headers("MCP-Protocol-Version", "2026-07-28"), "{not json"))
                .isFalse();
        assertThat(Revisions.stateless(McpRequestHeaders.NONE, "[1]")).isFalse();
        assertThat(Revisions.stateless(McpRequestHeaders.NONE, "")).isFalse();
    }

    @Test
    void every_revision_is_named_newest_first() {
        assertThat(Revisions.ALL).containsExactly("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");
    }

    private static McpRequestHeaders headers(String name, String value) {
        return new McpRequestHeaders(Map.of(name, List.of(value)));
    }
}
