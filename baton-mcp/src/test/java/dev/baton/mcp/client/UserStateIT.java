package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ToolCalls;
import dev.baton.runtime.config.Yaml;
import dev.baton.testkit.npm.NpmPackages;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whose data a server keeps, as the operator stated it: the real {@code server-memory} per user (a process and a data
 * file for each user, so neither sees nor changes the other's graph; a bounded pool, idle ones stopped), and a shared
 * server only for the roles it is shared with.
 */
class UserStateIT {
    @TempDir
    Path dir;

    McpClients clients;
    final Principal alice = ToolCalls.user("alice", "mcp:memory", "mcp:everything");
    final Principal bob = ToolCalls.user("bob", "mcp:memory", "mcp:everything");

    @AfterEach
    void stop() {
        if (clients != null) clients.close();
    }

    @Test
    void two_users_of_a_per_user_memory_server_neither_see_nor_change_each_others_graph() {
        ToolCalls calls = memoryPerUser(10, "10m");

        assertThat(calls.call(alice, "memory__create_entities", entity("AliceSecret", "alice's note"))
                        .state())
                .isEqualTo(ToolCallState.SUCCEEDED);
        // bob tries to read it, then to write into an entity of the same name
        ToolCallOutcome bobsView = calls.call(bob, "memory__read_graph", "{}");
        ToolCallOutcome bobsWrite = calls.call(
                bob,
                "memory__add_observations",
                "{\"observations\":[{\"entityName\":\"AliceSecret\",\"contents\":[\"poisoned by bob\"]}]}");
        calls.call(bob, "memory__create_entities", entity("BobNote", "bob's note"));
        ToolCallOutcome alicesView = calls.call(alice, "memory__read_graph", "{}");

        assertThat(bobsView.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(bobsView.result().toString()).doesNotContain("AliceSecret").doesNotContain("alice's note");
        // bob's graph has no such entity: the server refuses, and alice's is untouched
        assertThat(bobsWrite.result() == null ? "" : bobsWrite.result().toString())
                .doesNotContain("poisoned by bob\"]}]");
        assertThat(alicesView.result().toString())
                .contains("AliceSecret", "alice's note")
                .doesNotContain("poisoned by bob")
                .doesNotContain("BobNote");
        assertThat(calls.call(bob, "memory__read_graph", "{}").result().toString())
                .contains("BobNote")
                .doesNotContain("AliceSecret");

        UserProcesses pool = clients.userProcesses("memory").orElseThrow();
        assertThat(pool.running()).isEqualTo(2);
        long alicesPid = pool.pidOf("acme", "alice").orElseThrow();
        long bobsPid = pool.pidOf("acme", "bob").orElseThrow();
        long listingPid = clients.connection("memory").orElseThrow().status().pid();
        assertThat(List.of(alicesPid, bobsPid, listingPid))
                .doesNotHaveDuplicates()
                .allMatch(pid -> pid > 0);
    }

    @Test
    void an_idle_users_process_is_stopped_and_their_data_is_there_on_the_next_call() {
        ToolCalls calls = memoryPerUser(10, "1s");
        calls.call(alice, "memory__create_entities", entity("Kept", "still here"));
        UserProcesses pool = clients.userProcesses("memory").orElseThrow();
        long first = pool.pidOf("acme", "alice").orElseThrow();

        await().atMost(Duration.ofSeconds(20)).until(() -> pool.running() == 0);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false) == false);

        assertThat(calls.call(alice, "memory__read_graph", "{}").result().toString())
                .contains("Kept");
        assertThat(pool.pidOf("acme", "alice").orElseThrow()).isNotEqualTo(first);
    }

    @Test
    void beyond_the_maximum_the_least_recently_used_idle_process_makes_room() {
        ToolCalls calls = memoryPerUser(1, "10m");
        calls.call(alice, "memory__create_entities", entity("A", "a"));
        UserProcesses pool = clients.userProcesses("memory").orElseThrow();
        long alices = pool.pidOf("acme", "alice").orElseThrow();

        assertThat(calls.call(bob, "memory__read_graph", "{}").result().toString())
                .doesNotContain("\"A\"");

        assertThat(pool.running()).isEqualTo(1);
        assertThat(pool.pidOf("acme", "alice")).isEmpty();
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        ProcessHandle.of(alices).map(ProcessHandle::isAlive).orElse(false) == false);
    }

    @Test
    void beyond_the_maximum_with_every_process_busy_the_call_is_refused_clearly() throws Exception {
        Path everything = NpmPackages.script("@modelcontextprotocol/server-everything", "dist/index.js");
        ToolCalls calls = start("""
                servers:
                  everything: { command: "%s", args: ["%s", "stdio"], state: perUser, maxProcesses: 1, timeout: 60s }
                """.formatted(NpmPackages.node(), everything), "mcp:everything/*");
        UserProcesses pool = clients.userProcesses("everything").orElseThrow();
        var running = CompletableFuture.supplyAsync(() -> calls.call(
                alice,
                "everything__trigger-long-running-operation",
                "{\"duration\":3,\"steps\":1}",
                Duration.ofSeconds(60)));
        await().atMost(Duration.ofSeconds(30)).until(() -> pool.busy() == 1);

        ToolCallOutcome refused = calls.call(bob, "everything__echo", "{\"message\":\"hi\"}");

        assertThat(refused.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(refused.error().code()).isEqualTo("mcp_busy");
        assertThat(refused.error().message()).contains("maximum of 1 processes").contains("try again");
        assertThat(running.get().state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(calls.call(bob, "everything__echo", "{\"message\":\"hi\"}").state())
                .isEqualTo(ToolCallState.SUCCEEDED);
    }

    @Test
    void a_shared_server_is_only_for_the_roles_it_is_shared_with_and_says_its_data_is_shared() {
        Path memory = NpmPackages.script("@modelcontextprotocol/server-memory", "dist/index.js");
        ToolCalls calls = start("""
                servers:
                  memory:
                    command: "%s"
                    args: ["%s"]
                    env: { MEMORY_FILE_PATH: "%s" }
                    state: shared
                    sharedWith: [admin]
                """.formatted(NpmPackages.node(), memory, dir.resolve("shared.jsonl")), "mcp:memory/*");
        Principal admin = new Principal(
                "root", "acme", null, null, java.util.Set.of("admin"), java.util.Set.of("mcp:memory"), List.of());

        ToolCallOutcome student = calls.call(alice, "memory__read_graph", "{}");

        assertThat(student.state()).isEqualTo(ToolCallState.DENIED);
        assertThat(calls.call(admin, "memory__read_graph", "{}").state()).isEqualTo(ToolCallState.SUCCEEDED);
        Tool readGraph =
                calls.catalog().find(calls.agent(), "memory__read_graph").orElseThrow();
        assertThat(readGraph.definition().sharedData()).isTrue();
        assertThat(readGraph.definition().usableBy(admin)).isTrue();
        assertThat(readGraph.definition().usableBy(alice)).isFalse();
        assertThat(clients.userProcesses("memory")).isEmpty();
    }

    private ToolCalls memoryPerUser(int maxProcesses, String idleTimeout) {
        Path memory = NpmPackages.script("@modelcontextprotocol/server-memory", "dist/index.js");
        return start("""
                servers:
                  memory:
                    command: "%s"
                    args: ["%s"]
                    env: { MEMORY_FILE_PATH: "%s/memory-${BATON_USER_KEY}.jsonl" }
                    state: perUser
                    maxProcesses: %d
                    idleTimeout: %s
                """.formatted(NpmPackages.node(), memory, dir, maxProcesses, idleTimeout), "mcp:memory/*");
    }

    private ToolCalls start(String yaml, String allowed) {
        clients = McpClients.start(
                McpSettings.parse(Yaml.parse(yaml), Map.of()), new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        return new ToolCalls(clients.toolSources(), List.of(allowed), Clock.systemUTC());
    }

    private static String entity(String name, String observation) {
        return "{\"entities\":[{\"name\":\"" + name + "\",\"entityType\":\"note\",\"observations\":[\"" + observation
                + "\"]}]}";
    }
}
