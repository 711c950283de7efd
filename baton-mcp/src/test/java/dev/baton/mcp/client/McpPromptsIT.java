package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolException;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ModernServer;
import dev.baton.mcp.support.NodeServer;
import dev.baton.runtime.config.Yaml;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompts of connected servers, from a 2025 server (server-everything) and a 2026-07-28 one (the TypeScript SDK v2):
 * listed and rendered only for callers who may use the server; a refusal of the server is the server's.
 */
class McpPromptsIT {
    @TempDir
    Path dir;

    final List<AutoCloseable> opened = new ArrayList<>();
    McpClients clients;

    final Principal tester = user("ann", Set.of("tester"), "mcp:everything", "mcp:modern");
    final Principal noPermission = user("bob", Set.of("tester"));
    final Principal otherRole = user("cid", Set.of("student"), "mcp:everything", "mcp:modern");

    @AfterEach
    void stop() throws Exception {
        if (clients != null) clients.close();
        for (AutoCloseable c : opened.reversed()) c.close();
    }

    @Test
    void prompts_of_both_revisions_are_listed_and_rendered_for_who_may_use_the_server() {
        NodeServer old = opened(NodeServer.everything("streamableHttp", dir));
        ModernServer modern = opened(ModernServer.start(dir));
        McpPrompts prompts = connect(Map.of("everything", old.url("/mcp"), "modern", modern.url("/mcp")));

        List<McpPrompts.Prompt> listed = prompts.list(tester);
        assertThat(listed)
                .extracting(p -> p.server() + "/" + p.name())
                .contains("everything/simple-prompt", "everything/args-prompt", "modern/summarise");
        McpPrompts.Prompt summarise = listed.stream()
                .filter(p -> p.name().equals("summarise"))
                .findFirst()
                .orElseThrow();
        assertThat(summarise.arguments()).containsExactly(new McpPrompts.Argument("topic", null, true));

        McpPrompts.Rendered weather = prompts.render(tester, "everything", "args-prompt", Map.of("city", "Lyon"))
                .orElseThrow();
        assertThat(weather.messages()).hasSize(1);
        assertThat(weather.messages().getFirst().role()).isEqualTo("user");
        assertThat(weather.messages().getFirst().content().path("text").asText())
                .contains("Lyon");
        McpPrompts.Rendered summary = prompts.render(tester, "modern", "summarise", Map.of("topic", "MCP"))
                .orElseThrow();
        assertThat(summary.messages().getFirst().content().path("text").asText())
                .isEqualTo("Summarise MCP in one line.");

        // without the permission, or without a role the shared data is for, there is nothing: not even the server
        assertThat(prompts.list(noPermission)).isEmpty();
        assertThat(prompts.list(otherRole)).isEmpty();
        assertThat(prompts.render(noPermission, "modern", "summarise", Map.of("topic", "x")))
                .isEmpty();
        assertThat(prompts.render(otherRole, "everything", "simple-prompt", Map.of()))
                .isEmpty();
        assertThat(prompts.render(tester, "nowhere", "simple-prompt", Map.of())).isEmpty();
    }

    @Test
    void an_unknown_prompt_or_a_missing_argument_is_the_servers_refusal() {
        ModernServer modern = opened(ModernServer.start(dir));
        McpPrompts prompts = connect(Map.of("modern", modern.url("/mcp")));

        assertThatThrownBy(() -> prompts.render(tester, "modern", "nope", Map.of()))
                .isInstanceOf(ToolException.class);
        assertThatThrownBy(() -> prompts.render(tester, "modern", "summarise", Map.of()))
                .isInstanceOf(ToolException.class);
    }

    private McpPrompts connect(Map<String, String> urls) {
        StringBuilder yaml = new StringBuilder("restartDelay: 300ms\nhealthCheck: 10m\nservers:\n");
        urls.forEach((name, url) -> yaml.append("  ")
                .append(name)
                .append(": { url: \"")
                .append(url)
                .append("\", state: shared, sharedWith: [tester] }\n"));
        clients = McpClients.start(
                McpSettings.parse(Yaml.parse(yaml.toString()), Map.of()), new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        assertThat(clients.status()).allMatch(ServerStatus::up);
        return clients.prompts();
    }

    private static Principal user(String id, Set<String> roles, String... permissions) {
        return new Principal(id, "t1", null, null, roles, Set.of(permissions), List.of());
    }

    private <T extends AutoCloseable> T opened(T resource) {
        opened.add(resource);
        return resource;
    }
}
