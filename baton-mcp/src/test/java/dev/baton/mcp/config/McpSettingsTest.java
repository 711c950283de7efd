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
                  memory:   { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"], env: {}, timeout: 10s, state: perUser }
                  todo:     { url: "http://127.0.0.1:8001/mcp", headers: { X-Api-Key: "${TODO_KEY}" }, timeout: 10s, state: shared, sharedWith: [admin] }
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
                    state: perUser
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
                  a: { command: x, state: perUser }
                  b: { url: "https://mcp.example.com/mcp", state: perUser, identity: { meta: true, userHeader: X-User, tenantHeader: X-Tenant } }
                """, Map.of());

        assertThat(settings.server("a").identity()).isEqualTo(IdentityForwarding.NONE);
        assertThat(settings.server("b").identity()).isEqualTo(new IdentityForwarding(true, "X-User", "X-Tenant"));
    }

    @Test
    void the_protocol_revision_is_asked_for_unless_pinned() {
        McpSettings settings = parse("""
                servers:
                  auto: { url: "https://a.example.com/mcp", state: shared, sharedWith: [admin] }
                  old: { url: "https://b.example.com/mcp", state: shared, sharedWith: [admin], protocol: "2025" }
                  new: { url: "https://c.example.com/mcp", state: shared, sharedWith: [admin], protocol: 2026 }
                  sse: { url: "https://d.example.com/sse", state: shared, sharedWith: [admin], transport: sse }
                """, Map.of());

        assertThat(protocol(settings, "auto")).isEqualTo(McpTransport.Protocol.AUTO);
        assertThat(protocol(settings, "old")).isEqualTo(McpTransport.Protocol.V2025);
        assertThat(protocol(settings, "new")).isEqualTo(McpTransport.Protocol.V2026);
        // the legacy SSE transport predates 2026-07-28
        assertThat(protocol(settings, "sse")).isEqualTo(McpTransport.Protocol.V2025);
        assertThatThrownBy(() -> parse(
                        "servers: { a: { url: \"http://h/\", state: shared, sharedWith: [admin], protocol: \"2024\" } }",
                        Map.of()))
                .hasMessage("mcp.servers.a.protocol must be auto, 2025 or 2026, got '2024'");
        assertThatThrownBy(() -> parse(
                        "servers: { a: { url: \"http://h/\", state: shared, sharedWith: [admin], transport: sse,"
                                + " protocol: 2026 } }",
                        Map.of()))
                .hasMessageContaining("protocol 2026 has no SSE transport");
    }

    private static McpTransport.Protocol protocol(McpSettings settings, String server) {
        return ((McpTransport.Http) settings.server(server).transport()).protocol();
    }

    @Test
    void mistakes_name_the_setting_that_is_wrong() {
        assertThatThrownBy(() -> parse("servers: { a: { command: x, url: \"http://h/\", state: perUser } }", Map.of()))
                .hasMessage("mcp.servers.a: set exactly one of command and url");
        assertThatThrownBy(() -> parse("servers: { a: { state: perUser } }", Map.of()))
                .hasMessage("mcp.servers.a: set exactly one of command and url");
        assertThatThrownBy(() -> parse("servers: { a: { command: x, comand: y, state: perUser } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.a: unknown key 'comand'");
        assertThatThrownBy(() -> parse(
                        "servers: { a: { url: \"http://h/\", state: shared, sharedWith: [admin], headers: { K: \"${NOPE}\" } } }",
                        Map.of()))
                .hasMessage("mcp.servers.a.headers.K names ${NOPE}, but that environment variable is not set");
        assertThatThrownBy(() ->
                        parse("servers: { a: { url: \"ftp://h/\", state: shared, sharedWith: [admin] } }", Map.of()))
                .hasMessageContaining("mcp.servers.a.url")
                .hasMessageContaining("http:// or https://");
        assertThatThrownBy(() -> parse(
                        "servers: { a: { url: \"http://u:p@h/\", state: shared, sharedWith: [admin] } }", Map.of()))
                .hasMessageContaining("must not carry credentials");
        assertThatThrownBy(() -> parse("servers: { my_server: { command: x, state: perUser } }", Map.of()))
                .hasMessageContaining("no underscores");
        assertThatThrownBy(() -> parse("servers: { a: { command: x, state: perUser, timeout: 10 } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.a.timeout");
        assertThatThrownBy(() -> parse(
                        "servers: { a: { command: x, state: perUser, identity: { userHeader: X-U } } }", Map.of()))
                .hasMessageContaining("identity headers need an HTTP server");
        assertThatThrownBy(() -> parse(
                        "servers: { a: { url: \"http://h/\", state: shared, sharedWith: [admin], transport: websocket } }",
                        Map.of()))
                .hasMessage("mcp.servers.a.transport must be auto, streamable or sse, got 'websocket'");
        assertThatThrownBy(() -> parse(
                        "servers: { a: { command: x, state: perUser }, A: { command: y, state: perUser } }", Map.of()))
                .hasMessageContaining("configured twice");
    }

    @Test
    void a_server_that_does_not_say_whose_data_it_keeps_is_refused_with_both_choices_explained() {
        assertThatThrownBy(() -> parse("servers: { memory: { command: npx } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.memory: say whose data the server keeps with state: perUser")
                .hasMessageContaining("Baton runs one process per user")
                .hasMessageContaining("state: shared")
                .hasMessageContaining("sharedWith")
                .hasMessageContaining("every user could read and change every other user's data");
        assertThatThrownBy(() -> parse("servers: { todo: { url: \"http://h/mcp\" } }", Map.of()))
                .hasMessageContaining("set identity and let the server enforce it");
        assertThatThrownBy(() -> parse("servers: { memory: { command: npx, state: everyone } }", Map.of()))
                .hasMessage("mcp.servers.memory.state must be perUser or shared, got 'everyone'");
    }

    @Test
    void a_shared_server_names_the_roles_that_share_it() {
        McpServerSettings shared = parse(
                        "servers: { memory: { command: npx, state: shared, sharedWith: [admin, teacher] } }", Map.of())
                .server("memory");
        assertThat(shared.state()).isEqualTo(new ServerState.Shared(Set.of("admin", "teacher")));
        assertThat(shared.sharedWith()).containsExactlyInAnyOrder("admin", "teacher");
        assertThat(shared.processPerUser()).isFalse();

        assertThatThrownBy(() -> parse("servers: { memory: { command: npx, state: shared } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.memory: state: shared needs sharedWith");
        assertThatThrownBy(
                        () -> parse("servers: { memory: { command: npx, state: shared, sharedWith: [] } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.memory: state: shared needs sharedWith");
        assertThatThrownBy(() ->
                        parse("servers: { memory: { command: npx, state: perUser, sharedWith: [admin] } }", Map.of()))
                .hasMessage("mcp.servers.memory.sharedWith is for state: shared");
    }

    @Test
    void a_command_server_per_user_runs_a_bounded_pool_of_processes() {
        McpServerSettings memory = parse("""
                servers:
                  memory:
                    command: npx
                    env: { MEMORY_FILE_PATH: "/var/lib/baton/memory/${BATON_USER_KEY}.jsonl" }
                    state: perUser
                    maxProcesses: 3
                    idleTimeout: 2m
                """, Map.of()).server("memory");

        assertThat(memory.state()).isEqualTo(new ServerState.PerUser(3, Duration.ofMinutes(2)));
        assertThat(memory.processPerUser()).isTrue();
        assertThat(memory.sharedWith()).isEmpty();
        McpTransport.Stdio own = ((McpTransport.Stdio) memory.transport()).forUser(UserKey.of("default", "alice"));
        assertThat(own.env().get("MEMORY_FILE_PATH"))
                .isEqualTo("/var/lib/baton/memory/"
                        + UserKey.of("default", "alice").value() + ".jsonl")
                .isNotEqualTo(((McpTransport.Stdio) memory.transport())
                        .forUser(UserKey.of("default", "bob"))
                        .env()
                        .get("MEMORY_FILE_PATH"));
        assertThat(parse("servers: { m: { command: npx, state: perUser } }", Map.of())
                        .server("m")
                        .state())
                .isEqualTo(ServerState.PerUser.defaults());

        assertThatThrownBy(() -> parse("servers: { m: { command: npx, state: perUser, maxProcesses: 0 } }", Map.of()))
                .hasMessage("mcp.servers.m.maxProcesses must be a whole number of at least 1");
        assertThatThrownBy(() -> parse(
                        "servers: { m: { command: npx, state: shared, sharedWith: [admin], idleTimeout: 1m } }",
                        Map.of()))
                .hasMessageContaining("are for state: perUser");
    }

    @Test
    void the_users_key_is_only_for_a_process_per_user() {
        assertThatThrownBy(() -> parse(
                        "servers: { m: { command: npx, args: [\"${BATON_USER_KEY}\"], state: shared, sharedWith: [a] } }",
                        Map.of()))
                .hasMessageContaining("only a command server with state: perUser has");
        assertThatThrownBy(() -> parse(
                        "servers: { m: { url: \"http://h/${BATON_USER_KEY}\", state: perUser, identity: { meta: true } } }",
                        Map.of("BATON_USER_KEY", "from-the-environment")))
                .hasMessageContaining("only a command server with state: perUser has");
        // two tenants' users of the same id are two users
        assertThat(UserKey.of("t1", "alice")).isNotEqualTo(UserKey.of("t2", "alice"));
        assertThat(UserKey.of("default", "../../etc/passwd").value()).matches("[0-9a-f]{32}");
    }

    @Test
    void a_url_server_per_user_must_be_told_who_calls() {
        assertThatThrownBy(() -> parse("servers: { todo: { url: \"http://h/mcp\", state: perUser } }", Map.of()))
                .hasMessageStartingWith("mcp.servers.todo: state perUser for a url server")
                .hasMessageContaining("set identity (userHeader or meta)");
        assertThat(parse(
                                "servers: { todo: { url: \"http://h/mcp\", state: perUser, identity: { userHeader: X-U } } }",
                                Map.of())
                        .server("todo")
                        .processPerUser())
                .isFalse();
        assertThatThrownBy(() -> parse(
                        "servers: { todo: { url: \"http://h/mcp\", state: perUser, maxProcesses: 2, identity: { meta: true } } }",
                        Map.of()))
                .hasMessageContaining("are for command servers");
    }

    @Test
    void the_operator_overrides_a_tools_hints_and_trusts_a_server_only_when_told() {
        McpServerSettings s = parse("""
                servers:
                  tasks:
                    command: npx
                    state: perUser
                    tools:
                      delete_task: { destructive: true }
                      list_tasks: { destructive: false }
                """, Map.of()).server("tasks");

        assertThat(s.trusted()).isFalse();
        assertThat(s.destructiveOverride("delete_task")).contains(true);
        assertThat(s.destructiveOverride("list_tasks")).contains(false);
        assertThat(s.destructiveOverride("add_task")).isEmpty();
        assertThat(parse("servers: { t: { command: x, state: perUser, trusted: true } }", Map.of())
                        .server("t")
                        .trusted())
                .isTrue();
        assertThatThrownBy(() -> parse("servers: { t: { command: x, state: perUser, trusted: yes please } }", Map.of()))
                .hasMessage("mcp.servers.t.trusted must be true or false");
        assertThatThrownBy(() -> parse(
                        "servers: { t: { command: x, state: perUser, tools: { a: { destructive: 1 } } } }", Map.of()))
                .hasMessage("mcp.servers.t.tools.a.destructive must be true or false");
    }

    @Test
    void no_section_means_no_servers() {
        assertThat(McpSettings.parse(null, Map.of()).servers()).isEmpty();
        assertThat(McpSettings.parse(com.fasterxml.jackson.databind.node.MissingNode.getInstance(), Map.of())
                        .servers())
                .isEmpty();
        assertThat(McpServerSettings.defaultPermissions("todo")).isEqualTo(Set.of("mcp:todo"));
    }

    @Test
    void the_bounds_of_attached_resources_have_defaults_and_say_what_is_wrong() {
        assertThat(parse("servers: {}\n", Map.of()).resources()).isEqualTo(ResourceSettings.DEFAULTS);
        ResourceSettings set =
                parse("resources: { maxBytes: 1000, cacheTtl: 5m }\n", Map.of()).resources();
        assertThat(set).isEqualTo(new ResourceSettings(1000, Duration.ofMinutes(5)));

        assertThatThrownBy(() -> parse("resources: { maxBytes: 0 }\n", Map.of()))
                .hasMessage("mcp.resources.maxBytes must be from 1 to 1048576, got 0");
        assertThatThrownBy(() -> parse("resources: { maxBytes: lots }\n", Map.of()))
                .hasMessage("mcp.resources.maxBytes must be a whole number of bytes, got \"lots\"");
        assertThatThrownBy(() -> parse("resources: { ttl: 5m }\n", Map.of()))
                .hasMessage("mcp.resources: unknown key 'ttl' (known: maxBytes, cacheTtl)");
    }
}
