package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.tool.Tool;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ToolCalls;
import dev.baton.runtime.config.Yaml;
import dev.baton.testkit.npm.NpmPackages;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool's hints come from its server, so they only count when the operator trusts the server; the operator's own word
 * per tool counts always. server-memory declares {@code read_graph} read-only and {@code create_entities} additive.
 */
class ToolHintsIT {
    @TempDir
    Path dir;

    McpClients clients;

    @AfterEach
    void stop() {
        if (clients != null) clients.close();
    }

    @Test
    void every_tool_of_a_server_not_marked_trusted_waits_for_approval_whatever_it_declares() {
        Map<String, Boolean> destructive = destructive("");

        assertThat(destructive)
                .containsEntry("memory__read_graph", true)
                .containsEntry("memory__create_entities", true)
                .containsEntry("memory__delete_entities", true);
    }

    @Test
    void a_trusted_servers_hints_count_and_the_operators_word_beats_them() {
        Map<String, Boolean> destructive = destructive("""
                    trusted: true
                    tools:
                      create_entities: { destructive: true }
                """);

        assertThat(destructive)
                .containsEntry("memory__read_graph", false)
                .containsEntry("memory__create_entities", true)
                .containsEntry("memory__delete_entities", true);
    }

    @Test
    void the_operator_can_spare_one_tool_of_an_untrusted_server_the_approval() {
        Map<String, Boolean> destructive = destructive("""
                    tools:
                      read_graph: { destructive: false }
                """);

        assertThat(destructive)
                .containsEntry("memory__read_graph", false)
                .containsEntry("memory__create_entities", true);
    }

    @Test
    void only_a_trusted_servers_tools_are_idempotent_where_it_says_so_and_so_run_again_after_a_crash() {
        Map<String, Boolean> trusted =
                hint("    trusted: true\n", t -> t.definition().idempotent());
        clients.close();
        Map<String, Boolean> untrusted = hint("", t -> t.definition().idempotent());

        assertThat(trusted)
                .containsEntry("memory__read_graph", true) // readOnlyHint
                .containsEntry("memory__delete_entities", true) // idempotentHint
                .containsEntry("memory__create_entities", false);
        assertThat(untrusted).isNotEmpty().doesNotContainValue(true);
    }

    private Map<String, Boolean> destructive(String more) {
        return hint(more, t -> t.definition().destructive());
    }

    private Map<String, Boolean> hint(String more, java.util.function.Predicate<Tool> hint) {
        Path memory = NpmPackages.script("@modelcontextprotocol/server-memory", "dist/index.js");
        String yaml = """
                servers:
                  memory:
                    command: "%s"
                    args: ["%s"]
                    env: { MEMORY_FILE_PATH: "%s" }
                    state: perUser
                """.formatted(NpmPackages.node(), memory, dir.resolve("m-${BATON_USER_KEY}.jsonl")) + more;
        clients = McpClients.start(
                McpSettings.parse(Yaml.parse(yaml), Map.of()), new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        ToolCalls calls = new ToolCalls(clients.toolSources(), List.of("mcp:memory/*"), Clock.systemUTC());
        Map<String, Boolean> out = new HashMap<>();
        for (Tool tool : calls.catalog().visibleTo(calls.agent()))
            out.put(tool.definition().name(), hint.test(tool));
        assertThat(out).isNotEmpty();
        return out;
    }
}
