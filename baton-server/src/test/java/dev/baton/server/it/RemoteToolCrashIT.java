package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.npm.NpmPackages;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash drill (d): the packaged server is killed (kill -9) while a remote MCP tool call is in flight — its outcome is
 * unknown: the server may have charged the card. Restarted on the same SQLite database with
 * {@code durableTurns.unknownOutcome: ask}, the server takes the turn over and, the tool being neither idempotent nor
 * transactional, does not run it again unasked: the turn waits for the user, whose pending approval says the outcome is
 * unknown. Approved through the API, the call runs again with the idempotency key of its first attempt (a server that
 * honours it acts once), and the turn ends done: one user message, one assistant message, both model calls' usage, and
 * the approval kept as decided.
 *
 * <p>The MCP server runs on the official TypeScript SDK over streamable HTTP; its tool records each call's
 * {@code _meta} key and answers only once the test releases it, so the kill happens while the call is surely in flight.
 */
class RemoteToolCrashIT {
    private static final String TOOL = "payments__charge_card";
    private static final String REQUEST = "{\"content\":\"charge my card\"}";

    @TempDir
    static Path workDir;

    static LlmSimulator sim;
    static Process peer;
    static String controlUrl;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void setUp() throws Exception {
        Path installed = NpmPackages.require(Path.of("target", "npm-remote-tool"), List.of(NpmPackages.TYPESCRIPT_SDK));
        Path script = NpmPackages.copyScript(installed, "/durable/remote-tool-peer.mjs");
        peer = new ProcessBuilder(NpmPackages.node(), script.toString())
                .directory(installed.toFile())
                .redirectError(installed.resolve("remote-tool-peer.log").toFile())
                .start();
        String line =
                new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("the MCP server's first line").isNotNull();
        JsonNode started = ApiClient.JSON.readTree(line);
        controlUrl = started.path("controlUrl").asText();
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays("charge my card", Reply.toolCall(TOOL, "{}"))
                .whenToolResult(TOOL, Reply.text("Your card is charged."))
                .fallback("Fine.")
                .build());
        Files.createDirectories(workDir.resolve("agents"));
        Files.writeString(workDir.resolve("agents").resolve("payments.yaml"), """
                id: payments
                name: Payments agent
                model: default
                tools: ["mcp:payments/*"]
                systemPrompt: You help.
                """);
        // not trusted: its tool is neither idempotent nor read-only for Baton; not destructive, so it runs unasked
        Files.writeString(workDir.resolve("baton.yaml"), """
                limits:
                  requestTimeout: 60s
                agents:
                  dirs: [agents]
                durableTurns:
                  enabled: true
                  instanceId: solo
                  lease: 3s
                  heartbeat: 1s
                  unknownOutcome: ask
                mcp:
                  servers:
                    payments:
                      url: "%s"
                      state: shared
                      sharedWith: [student]
                      permissions: []
                      timeout: 120s
                      tools: { charge_card: { destructive: false } }
                """.formatted(
                        started.path("mcpUrl").asText()));
    }

    @AfterAll
    static void tearDown() {
        if (sim != null) sim.close();
        if (peer != null) peer.destroyForcibly();
    }

    @Test
    void a_remote_call_in_flight_at_kill_9_waits_for_the_user_and_once_approved_runs_again_with_the_same_key()
            throws Exception {
        Map<String, String> env = ServerEnv.of(
                "jdbc:sqlite:" + workDir.resolve("baton.db"), sim.baseUrl(), workDir.resolve("baton.yaml"));
        String token = TestServer.token("remote-crash");
        String session;
        try (ServerProcess doomed = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(doomed.url());
            session = api.startSession(token, "payments");
            CompletableFuture<ApiClient.Response> waiting =
                    CompletableFuture.supplyAsync(() -> api.post(messages(session), token, REQUEST));
            await().atMost(Duration.ofSeconds(60)).until(() -> calls().size() == 1);
            doomed.kill();
            assertThat(waiting).failsWithin(Duration.ofSeconds(30));
        }
        String firstKey = calls().getFirst().path("key").asText();
        assertThat(firstKey).as("the call carries its idempotency key").startsWith("baton-tc-");

        try (ServerProcess restarted = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(restarted.url());
            // taken over at boot (its previous boot's turn): the call is not run again unasked
            List<JsonNode> pending = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        pending.clear();
                        api.get("/v1/sessions/" + session, token)
                                .body()
                                .path("pendingApprovals")
                                .forEach(pending::add);
                        return !pending.isEmpty();
                    });
            assertThat(calls()).as("not run again before the user decides").hasSize(1);
            JsonNode held = pending.getFirst();
            assertThat(held.path("name").asText()).isEqualTo(TOOL);
            assertThat(held.path("status").asText()).isEqualTo("pending");
            assertThat(held.path("reason").asText())
                    .startsWith("The outcome of " + TOOL + " is unknown")
                    .contains("Approve to run it again");

            post(controlUrl + "/release");
            ApiClient.Response resumed = api.post(
                    "/v1/sessions/" + session + "/approvals/"
                            + held.path("callId").asText(),
                    token,
                    "{\"decision\":\"approve\"}");

            assertThat(resumed.status()).as(resumed.raw()).isEqualTo(200);
            assertThat(resumed.body().path("state").asText()).isEqualTo("completed");
            assertThat(resumed.body().path("answer").asText()).isEqualTo("Your card is charged.");
            assertThat(calls())
                    .as("run again once, with its first attempt's key")
                    .extracting(c -> c.path("key").asText())
                    .containsExactly(firstKey, firstKey);
            JsonNode messages = api.get(messages(session), token).body().path("messages");
            List<String> said = new ArrayList<>();
            messages.forEach(m ->
                    said.add(m.path("role").asText() + ": " + m.path("content").asText()));
            assertThat(said).containsExactly("user: charge my card", "assistant: Your card is charged.");
            assertThat(messages.get(1).path("toolCalls")).singleElement().satisfies(c -> {
                assertThat(c.path("name").asText()).isEqualTo(TOOL);
                assertThat(c.path("state").asText()).isEqualTo("succeeded");
            });
        }
        String db = "jdbc:sqlite:" + workDir.resolve("baton.db");
        // the model call that asked for the tool (from the checkpoint) and the one after the approval
        assertThat(count(db, "SELECT count(*) FROM ai_usage WHERE session_id = ?", session))
                .isEqualTo(2);
        assertThat(count(
                        db,
                        "SELECT count(*) FROM tool_approvals WHERE session_id = ? AND status = 'approved'"
                                + " AND decided_by IS NOT NULL",
                        session))
                .as("the decision kept in the approvals' audit trail")
                .isEqualTo(1);
        assertThat(count(db, "SELECT count(*) FROM running_turns WHERE session_id = ?", session))
                .as("no lease left")
                .isZero();
    }

    private static String messages(String session) {
        return "/v1/sessions/" + session + "/messages";
    }

    /** The calls the MCP server got so far, each with the idempotency key of its {@code _meta}. */
    private static List<JsonNode> calls() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(controlUrl + "/calls")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        List<JsonNode> calls = new ArrayList<>();
        ApiClient.JSON.readTree(r.body()).forEach(calls::add);
        return calls;
    }

    private static void post(String url) throws Exception {
        HttpResponse<Void> r = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        assertThat(r.statusCode()).isEqualTo(204);
    }

    private static int count(String url, String sql, String arg) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
