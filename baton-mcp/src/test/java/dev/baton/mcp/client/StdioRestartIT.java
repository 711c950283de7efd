package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ToolCalls;
import dev.baton.runtime.config.Yaml;
import dev.baton.testkit.npm.NpmPackages;
import dev.baton.testkit.time.SettableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stdio server that dies mid-session: calls fail at once (never waiting out their timeout), five failures open the
 * source's breaker so later calls fail fast as "unavailable", the process is restarted with a backoff, and once the
 * breaker lets a probe through the tools work again. The other server never notices.
 */
class StdioRestartIT {
    final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T10:00:00Z"));
    final Principal alice = ToolCalls.user("alice", "mcp:everything", "mcp:memory");
    McpClients clients;
    ToolCalls calls;

    @BeforeEach
    void start() {
        String node = NpmPackages.node();
        Path everything = NpmPackages.script("@modelcontextprotocol/server-everything", "dist/index.js");
        Path memory = NpmPackages.script("@modelcontextprotocol/server-memory", "dist/index.js");
        McpSettings settings = McpSettings.parse(
                Yaml.parse("""
                        restartDelay: 1s
                        maxRestartDelay: 4s
                        healthCheck: 1s
                        servers:
                          everything: { command: "%s", args: ["%s", "stdio"], timeout: 120s, state: shared, sharedWith: [tester] }
                          memory: { command: "%s", args: ["%s"], env: { MEMORY_FILE_PATH: "%s" }, state: shared, sharedWith: [tester] }
                        """.formatted(
                                node,
                                everything,
                                node,
                                memory,
                                Path.of("target", "restart-memory.jsonl").toAbsolutePath())),
                Map.of());
        clients = McpClients.start(settings, new InMemoryToolPins(), clock);
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        calls = new ToolCalls(clients.toolSources(), List.of("mcp:everything/*", "mcp:memory/*"), clock);
    }

    @AfterEach
    void stop() {
        if (clients != null) clients.close();
    }

    @Test
    void a_killed_server_fails_calls_fast_opens_its_breaker_and_comes_back_after_a_restart() {
        assertThat(calls.call(alice, "everything__echo", "{\"message\":\"before\"}")
                        .state())
                .isEqualTo(ToolCallState.SUCCEEDED);
        long pid = status("everything").pid();

        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        await().atMost(Duration.ofSeconds(60)).until(() -> status("everything").state() != ServerStatus.State.UP);

        long started = System.nanoTime();
        List<ToolCallOutcome> outage = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++)
            outage.add(calls.call(alice, "everything__echo", "{\"message\":\"during " + i + "\"}"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        // nothing waited for the 120 s timeout: the first five failed at once, the sixth was refused by the breaker
        // (the margin is wide so that a busy machine cannot blur "at once" with "timed out")
        assertThat(took).isLessThan(Duration.ofSeconds(60));
        assertThat(outage.subList(0, 5)).allSatisfy(o -> assertThat(o.state()).isEqualTo(ToolCallState.FAILED));
        assertThat(outage.get(5).error().code()).isEqualTo("tool_unavailable");
        assertThat(calls.guarded.getFirst().breaker().state()).isEqualTo(CircuitBreaker.State.OPEN);
        // the other server's tools keep working
        assertThat(calls.call(alice, "memory__read_graph", "{}").state()).isEqualTo(ToolCallState.SUCCEEDED);

        await().atMost(Duration.ofSeconds(60)).until(() -> status("everything").up());
        assertThat(status("everything").pid()).isNotEqualTo(pid);
        assertThat(status("everything").restarts()).isGreaterThanOrEqualTo(1);

        clock.advance(Duration.ofSeconds(31)); // past the breaker's open time: one probe may go through
        ToolCallOutcome after = calls.call(alice, "everything__echo", "{\"message\":\"after\"}");
        assertThat(after.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(after.result().path("text").asText()).contains("after");
        assertThat(calls.guarded.getFirst().breaker().state()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void a_call_in_flight_when_the_server_dies_fails_at_once() throws Exception {
        long pid = status("everything").pid();
        var running = java.util.concurrent.CompletableFuture.supplyAsync(() -> calls.call(
                alice,
                "everything__trigger-long-running-operation",
                "{\"duration\":240,\"steps\":2}",
                Duration.ofSeconds(300)));
        McpConnection everything = clients.connection("everything").orElseThrow();
        await().atMost(Duration.ofSeconds(60)).until(() -> everything.callsInFlight() == 1);

        long started = System.nanoTime();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        ToolCallOutcome outcome = running.get();

        // the operation had 240 s to go and the call 300 s: failing within a minute can only be the server's death
        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
    }

    private ServerStatus status(String name) {
        return clients.status().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
