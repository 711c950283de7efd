package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ModernServer;
import dev.baton.mcp.support.NodeServer;
import dev.baton.mcp.support.ToolCalls;
import dev.baton.runtime.config.Yaml;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baton's client against a server that speaks only MCP 2026-07-28 (the official TypeScript SDK v2, which refuses the
 * 2025 handshake): found by {@code server/discover} and called statelessly, every request carrying its revision and
 * capabilities; and the {@code protocol} setting, which pins either revision.
 */
class ModernServersIT {
    private static final String REVISION_KEY = "io.modelcontextprotocol/protocolVersion";
    private static final String CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

    @TempDir
    Path dir;

    final Principal alice = ToolCalls.user("alice", "mcp:modern");
    final List<AutoCloseable> opened = new ArrayList<>();
    McpClients clients;

    @AfterEach
    void stop() throws Exception {
        if (clients != null) clients.close();
        for (AutoCloseable c : opened.reversed()) c.close();
    }

    @Test
    void a_2026_server_is_found_by_discovery_and_called_statelessly() {
        ModernServer server = opened(ModernServer.start(dir));
        ToolCalls calls = connect("url: \"" + server.url("/mcp") + "\"\nheaders: { X-Api-Key: key-1 }");

        assertThat(status().up()).isTrue();
        assertThat(status().wire()).isEqualTo("streamable-http 2026-07-28");
        ToolCallOutcome echo = calls.call(alice, "modern__echo", "{\"text\":\"over 2026\"}");
        assertThat(echo.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(echo.result().path("text").asText()).isEqualTo("echo: over 2026");

        List<JsonNode> seen = list(server.seen());
        assertThat(seen).extracting(r -> r.path("method").asText()).contains("server/discover", "tools/list");
        assertThat(seen).extracting(r -> r.path("method").asText()).doesNotContain("initialize");
        for (JsonNode request : seen) {
            assertThat(request.path("meta").path(REVISION_KEY).asText()).isEqualTo("2026-07-28");
            assertThat(request.path("meta").has(CAPABILITIES_KEY)).isTrue();
            assertThat(request.path("mcpMethod").asText())
                    .isEqualTo(request.path("method").asText());
            assertThat(request.path("apiKey").asText()).isEqualTo("key-1");
        }
        JsonNode call = seen.stream()
                .filter(r -> r.path("method").asText().equals("tools/call"))
                .findFirst()
                .orElseThrow();
        assertThat(call.path("mcpName").asText()).isEqualTo("echo");
    }

    @Test
    void a_tool_error_of_a_2026_server_is_a_tool_error_not_a_server_failure() {
        ModernServer server = opened(ModernServer.start(dir));
        ToolCalls calls = connect("url: \"" + server.url("/mcp") + "\"");

        ToolCallOutcome failed = calls.call(alice, "modern__fail", "{}");

        assertThat(failed.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(failed.error().code()).isEqualTo("mcp_tool_error");
        assertThat(failed.error().message()).contains("it failed");
        assertThat(status().up()).isTrue();
    }

    @Test
    void a_call_baton_gives_up_on_closes_its_request_which_is_how_2026_cancels() {
        ModernServer server = opened(ModernServer.start(dir));
        ToolCalls calls = connect("url: \"" + server.url("/mcp") + "\"\ntools: { slow: { timeout: 1s } }");

        long started = System.nanoTime();
        ToolCallOutcome slow = calls.call(alice, "modern__slow", "{}");

        assertThat(slow.state()).isEqualTo(ToolCallState.TIMED_OUT);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> list(server.seen()).stream()
                        .anyMatch(r -> r.path("method").asText().equals("closed-early")));
    }

    @Test
    void protocol_2025_pins_the_handshake_which_a_2026_only_server_refuses() {
        ModernServer server = opened(ModernServer.start(dir));
        connect("url: \"" + server.url("/mcp") + "\"\nprotocol: \"2025\"\ntimeout: 3s");

        assertThat(status().up()).isFalse();
        assertThat(list(server.seen()))
                .extracting(r -> r.path("method").asText())
                .contains("initialize")
                .doesNotContain("server/discover");
    }

    @Test
    void protocol_2026_does_not_fall_back_for_a_2025_server_while_auto_does() {
        NodeServer old = opened(NodeServer.everything("streamableHttp", dir));
        connect("url: \"" + old.url("/mcp") + "\"\nprotocol: \"2026\"\ntimeout: 3s");
        assertThat(status().up()).isFalse();
        clients.close();

        connect("url: \"" + old.url("/mcp") + "\"\ntimeout: 3s");
        assertThat(status().up()).isTrue();
        assertThat(status().wire()).isEqualTo("streamable-http");
    }

    private static List<JsonNode> list(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    private ToolCalls connect(String serverYaml) {
        String yaml = "restartDelay: 300ms\nhealthCheck: 10m\nservers:\n  modern:\n"
                + (serverYaml + "\nstate: shared\nsharedWith: [tester]")
                        .lines()
                        .map(l -> "    " + l)
                        .reduce("", (a, b) -> a + b + "\n");
        McpSettings settings = McpSettings.parse(Yaml.parse(yaml), Map.of());
        clients = McpClients.start(settings, new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        return new ToolCalls(clients.toolSources(), List.of("mcp:modern/*"), Clock.systemUTC());
    }

    private ServerStatus status() {
        return clients.status().getFirst();
    }

    private <T extends AutoCloseable> T opened(T resource) {
        opened.add(resource);
        return resource;
    }
}
