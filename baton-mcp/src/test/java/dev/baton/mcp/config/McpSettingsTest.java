package dev.baton.mcp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.config.Yaml;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class McpSettingsTest {

    static McpSettings parse(String yaml, Map<String, String> env) {
        return McpSettings.parse(Yaml.parse(yaml), env);
    }

    @Test
    void the_issues_example_reads_as_one_stdio_and_one_http_server() {
        McpSettings settings = parse("""
                servers:
                  memory:   { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"], env: {}, timeout: 10s }
                  todo:     { url: "http://127.0.0.1:8001/mcp", headers: { X-Api-Key: "${TODO_KEY}" }, timeout: 10s }
                """, Map.of("TODO_KEY", "s3cret"));

        McpServerSettings memory = settings.server("memory");
        assertThat(memory.transport())
                .isEqualTo(
                        new McpTransport.Stdio("npx", List.of("-y", "@modelcontextprotocol/server-memory"), Map.of()));
        assertThat(memory.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(memory.permissions()).containsExactly("mcp:memory");
        McpTransport.Http todo = (McpTransport.Http) settings.server("todo").transport();
        assertThat(todo.url()).isEqualTo(URI.create("http://127.0.0.1:8001/mcp"));
        assertThat(todo.headers()).containsEntry("X-Api-Key", "s3cret");
        assertThat(todo.mode()).isEqualTo(McpTransport.HttpMode.AUTO);
    }

    @Test
    void per_tool_permissions_and_timeouts_override_the_servers() {
        McpServerSettings s = parse("""
                servers:
                  memory:
                    command: npx
                    permissions: [mcp:memory:read]
                    tools:
                      delete_entities: { permissions: [mcp:memory:admin], timeout: 2s }
                """, Map.of()).server("memory");

        assertThat(s.permissionsFor("read_graph")).containsExactly("mcp:memory:read");
        assertThat(s.permissionsFor("delete_entities")).containsExactly("mcp:memory:admin");
        assertThat(s.timeoutFor("delete_entities")).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.timeoutFor("read_graph")).isEqualTo(McpSettings.DEFAULT_TIMEOUT);
    }

    @Test
    void identity_forwarding_is_off_unless_configured() {
        McpSettings settings = parse("""
                servers:
                  a: { command: x }
                  b: { url: "https://mcp.example.com/mcp", identity: { meta: true, userHeader: X-User, tenantHeader: X-Tenant } }
                """, Map.of());

        assertThat(settings.server("a").identity()).isEqualTo(IdentityForwarding.NONE);
        assertThat(settings.server("b").identity()).isEqualTo(new IdentityForwarding(true, "X-User", "X-Tenant"));
    }

    @Test
    void mistakes_name_the_setting_that_is_wrong() {
        assertThatThrownBy(() -> parse("servers: { a: { command: x, url: \"http://h/\" } }", Map.of()))
                .hasMessage("mcp.servers.a: set exactly one of command and url");
        assertThatThrownBy(() -> parse("servers: { a: {} }", Map.of()))
                .hasMessage("mcp.servers.a: set exactly one of command and url");
        assertThatThrownBy(() -> parse("servers: { a: { command: x, comand: y } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.a: unknown key 'comand'");
        assertThatThrownBy(() -> parse("servers: { a: { url: \"http://h/\", headers: { K: \"${NOPE}\" } } }", Map.of()))
                .hasMessage("mcp.servers.a.headers.K names ${NOPE}, but that environment variable is not set");
        assertThatThrownBy(() -> parse("servers: { a: { url: \"ftp://h/\" } }", Map.of()))
                .hasMessageContaining("mcp.servers.a.url")
                .hasMessageContaining("http:// or https://");
        assertThatThrownBy(() -> parse("servers: { a: { url: \"http://u:p@h/\" } }", Map.of()))
                .hasMessageContaining("must not carry credentials");
        assertThatThrownBy(() -> parse("servers: { my_server: { command: x } }", Map.of()))
                .hasMessageContaining("no underscores");
        assertThatThrownBy(() -> parse("servers: { a: { command: x, timeout: 10 } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.a.timeout");
        assertThatThrownBy(() -> parse("servers: { a: { command: x, identity: { userHeader: X-U } } }", Map.of()))
                .hasMessageContaining("identity headers need an HTTP server");
        assertThatThrownBy(() -> parse("servers: { a: { url: \"http://h/\", transport: websocket } }", Map.of()))
                .hasMessage("mcp.servers.a.transport must be auto, streamable or sse, got 'websocket'");
        assertThatThrownBy(() -> parse("servers: { a: { command: x }, A: { command: y } }", Map.of()))
                .hasMessageContaining("configured twice");
    }

    @Test
    void no_section_means_no_servers() {
        assertThat(McpSettings.parse(null, Map.of()).servers()).isEmpty();
        assertThat(McpSettings.parse(com.fasterxml.jackson.databind.node.MissingNode.getInstance(), Map.of())
                        .servers())
                .isEmpty();
        assertThat(McpServerSettings.defaultPermissions("todo")).isEqualTo(Set.of("mcp:todo"));
    }
}
