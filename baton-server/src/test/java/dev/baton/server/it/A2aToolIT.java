package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.npm.NpmPackages;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baton calling a remote A2A agent as a tool: the remote is built with the official A2A JS SDK's server side on
 * express, configured under {@code a2a.remotes}; the simulated model calls {@code a2a__weather} and reads the remote's
 * answer. A user whose role lacks {@code a2a:weather} neither sees the tool nor gets a call through to the remote.
 */
class A2aToolIT {
    static final Set<String> CHAT = LimitsFixture.CHAT;

    @TempDir
    static Path dir;

    static Process remote;
    static final List<JsonNode> remoteRequests = new CopyOnWriteArrayList<>();
    static TestServer t;

    @BeforeAll
    static void start() throws Exception {
        Path npm = NpmPackages.require(
                Path.of("target", "npm-a2a-server"), List.of(NpmPackages.A2A_SDK, NpmPackages.EXPRESS));
        Path script = NpmPackages.copyScript(npm, "/a2a/remote-agent.mjs");
        remote = new ProcessBuilder(NpmPackages.node(), script.toString())
                .redirectError(dir.resolve("remote.err").toFile())
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(remote.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    JsonNode json = ApiClient.JSON.readTree(line);
                    if (json.has("port")) port.complete(json.path("port").asInt());
                    else remoteRequests.add(json);
                }
            } catch (Exception e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IllegalStateException("the remote agent exited"));
        });
        int remotePort = port.get(60, TimeUnit.SECONDS);

        Path agents = Files.createDirectories(dir.resolve("agents"));
        Files.writeString(agents.resolve("forecaster.yaml"), """
                id: forecaster
                name: Forecaster
                description: Asks the weather agent
                systemPrompt: You pass weather questions on to the weather agent.
                tools: ["a2a:weather", "a2a:offline"]
                """);
        SimulatorScript script2 = SimulatorScript.builder()
                .whenUserMatches("weather in (\\w+)", Reply.toolCall("a2a__weather", "{\"message\":\"weather in $1\"}"))
                .whenUserMatches("check the offline agent", Reply.toolCall("a2a__offline", "{\"message\":\"hi\"}"))
                .whenToolResult("a2a__offline", Reply.text("The offline agent could not be asked."))
                .whenUserMatches(
                        "(say hello|weather somewhere)", Reply.toolCall("a2a__weather", "{\"message\":\"$1\"}"))
                .when(
                        Condition.ToolResult.of("a2a__weather", "\"state\":\"input-required\",\"text\":\"([^\"]*)\""),
                        Reply.text("The weather agent asks: $1"))
                .when(
                        Condition.ToolResult.of("a2a__weather", "\"text\":\"([^\"]*)\""),
                        Reply.text("The weather agent says: $1"))
                .whenToolResult("a2a__weather", Reply.text("I could not ask the weather agent."))
                .fallback("Ask me about the weather.")
                .build();
        JsonNode raw = ConfigLoader.yamlMapper().readTree("""
                rateLimits: { enabled: false }
                a2a:
                  remotes:
                    weather:
                      url: "http://127.0.0.1:%d/"
                      description: Answers questions about the weather
                      headers: { X-Remote-Key: "${REMOTE_KEY}" }
                      timeout: 20s
                    offline:
                      url: "http://127.0.0.1:%d/"
                """.formatted(remotePort, closedPort()));
        BatonConfig config = new BatonConfig(
                0,
                "jdbc:sqlite:" + dir.resolve("a2a-tool.db"),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                Map.of("forecaster", union(CHAT, Set.of("a2a:weather", "a2a:offline")), "student", CHAT),
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of("REMOTE_KEY", "secret-1"));
        t = TestServer.start(config, LlmSimulator.start(script2), true, Clock.systemUTC());
    }

    @AfterAll
    static void stop() throws Exception {
        if (t != null) t.close();
        if (remote != null) {
            remote.destroy();
            remote.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A port nothing listens on. */
    static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static Set<String> union(Set<String> a, Set<String> b) {
        var all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    static String token(String user, String role) {
        return LimitsFixture.token(user, "acme", role, Instant.now());
    }

    @Test
    void the_model_calls_the_remote_agent_and_reads_its_answer() {
        String token = token("fay", "forecaster");
        int before = remoteRequests.size();

        var chat = t.api.post("/v1/chat", token, "{\"message\":\"weather in Lisbon\",\"agentId\":\"forecaster\"}");

        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        // the configured header went along; the user's token did not
        assertThat(chat.body().path("answer").asText())
                .isEqualTo("The weather agent says: Sunny in Lisbon (key=secret-1, auth=none)");
        JsonNode call = chat.body().path("toolCalls").get(0);
        assertThat(call.path("name").asText()).isEqualTo("a2a__weather");
        assertThat(call.path("state").asText()).isEqualTo("succeeded");
        assertThat(call.at("/result/state").asText()).isEqualTo("completed");
        assertThat(call.at("/result/taskId").asText()).isNotBlank();
        assertThat(remoteRequests.size()).isEqualTo(before + 1);

        JsonNode tools = t.api.get("/v1/tools", token).body().path("tools");
        assertThat(tools.toString()).contains("\"name\":\"a2a__weather\"").contains("\"source\":\"a2a\"");
    }

    @Test
    void a_remote_task_waiting_for_input_and_a_plain_message_reply_reach_the_model() {
        String token = token("ina", "forecaster");

        var asks = t.api.post("/v1/chat", token, "{\"message\":\"weather somewhere\",\"agentId\":\"forecaster\"}");
        var hello = t.api.post("/v1/chat", token, "{\"message\":\"say hello\",\"agentId\":\"forecaster\"}");

        assertThat(asks.body().path("answer").asText()).isEqualTo("The weather agent asks: Which city do you mean?");
        assertThat(asks.body().at("/toolCalls/0/result/state").asText()).isEqualTo("input-required");
        assertThat(hello.body().path("answer").asText())
                .isEqualTo("The weather agent says: Hello from the weather agent");
    }

    @Test
    void a_remote_that_does_not_answer_is_a_tool_error_the_model_reads() {
        var chat = t.api.post(
                "/v1/chat",
                token("off", "forecaster"),
                "{\"message\":\"check the offline agent\",\"agentId\":\"forecaster\"}");

        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        assertThat(chat.body().path("answer").asText()).isEqualTo("The offline agent could not be asked.");
        JsonNode call = chat.body().path("toolCalls").get(0);
        assertThat(call.path("name").asText()).isEqualTo("a2a__offline");
        assertThat(call.path("state").asText()).isNotEqualTo("succeeded");
        assertThat(call.path("error").asText()).contains("did not answer");
    }

    @Test
    void a_user_without_the_permission_neither_sees_the_tool_nor_reaches_the_remote() {
        String token = token("sid", "student");
        int before = remoteRequests.size();

        var chat = t.api.post("/v1/chat", token, "{\"message\":\"weather in Oslo\",\"agentId\":\"forecaster\"}");

        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        assertThat(chat.body().path("answer").asText()).isEqualTo("I could not ask the weather agent.");
        JsonNode call = chat.body().path("toolCalls").get(0);
        assertThat(call.path("name").asText()).isEqualTo("a2a__weather");
        assertThat(call.path("state").asText()).isNotEqualTo("succeeded");
        assertThat(call.path("error").asText()).isNotBlank();
        assertThat(t.api.get("/v1/tools", token).body().toString()).doesNotContain("a2a__weather");
        // nothing reached the remote agent: the same count, after a turn that ended
        assertThat(remoteRequests.size()).isEqualTo(before);
    }
}
