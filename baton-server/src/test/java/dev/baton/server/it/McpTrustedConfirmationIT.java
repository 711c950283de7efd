package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.runtime.config.ConfigException;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.mcpTrustClientConfirmation: true}: a call that needs approval from an MCP client Baton cannot ask (a
 * 2025 client, a 2026-07-28 client without elicitation) runs — the operator trusts the client to have asked its user,
 * seeing {@code destructiveHint} — while a client that can be asked still is; a value that is not a boolean stops the
 * start.
 */
class McpTrustedConfirmationIT {
    @TempDir
    static Path dir;

    static TestServer t;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        t = TestServer.start(
                config("server: { mcpTrustClientConfirmation: true }", "trusted.db"),
                LlmSimulator.start(TaskAgentScript.create()),
                true,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    @Test
    void a_2025_client_deletes_when_its_confirmation_is_trusted() throws Exception {
        String alice = TestServer.token("trusted-alice");
        String session = initialize(alice);
        String taskId = call(alice, session, "add_task", "{\"title\":\"Trusted delete\"}")
                .at("/structuredContent/task/id")
                .asText();

        JsonNode deleted = call(alice, session, "delete_task", "{\"taskId\":\"" + taskId + "\",\"confirmation\":true}");

        assertThat(deleted.path("isError").asBoolean()).as(deleted.toString()).isFalse();
        assertThat(titles(alice)).isEmpty();
    }

    @Test
    void a_2026_client_without_elicitation_deletes_and_one_with_it_is_still_asked() throws Exception {
        String bob = TestServer.token("trusted-bob");
        String first = call(bob, null, "add_task", "{\"title\":\"Gone\"}")
                .at("/structuredContent/task/id")
                .asText();
        String second = call(bob, null, "add_task", "{\"title\":\"Asked\"}")
                .at("/structuredContent/task/id")
                .asText();

        JsonNode deleted = call(bob, null, "delete_task", "{\"taskId\":\"" + first + "\",\"confirmation\":true}");
        JsonNode asked = stateless(bob, "delete_task", "{\"taskId\":\"" + second + "\",\"confirmation\":true}", true);

        assertThat(deleted.path("isError").asBoolean()).as(deleted.toString()).isFalse();
        assertThat(asked.path("resultType").asText()).isEqualTo("input_required");
        assertThat(titles(bob)).containsExactly("Asked");
    }

    @Test
    void a_value_that_is_not_a_boolean_stops_the_start() {
        assertThatThrownBy(() -> TestServer.start(
                                config("server: { mcpTrustClientConfirmation: \"yes\" }", "bad.db"),
                                LlmSimulator.start(TaskAgentScript.create()),
                                true,
                                Clock.systemUTC())
                        .close())
                .hasStackTraceContaining(ConfigException.class.getName())
                .hasStackTraceContaining("server.mcpTrustClientConfirmation must be true or false");
    }

    private static BatonConfig config(String yaml, String database) throws Exception {
        return new BatonConfig(
                0,
                "jdbc:sqlite:" + dir.resolve(database),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                ConfigLoader.yamlMapper().readTree(yaml),
                Map.of());
    }

    private static String initialize(String token) throws Exception {
        HttpResponse<String> answer = http.send(
                request(token, null, null, null)
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                                        + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\","
                                        + "\"version\":\"1\"}}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** A tools/call over the 2025 session, or — without one — as a 2026-07-28 client without elicitation. */
    private static JsonNode call(String token, String session, String tool, String arguments) throws Exception {
        if (session == null) return stateless(token, tool, arguments, false);
        HttpResponse<String> answer = http.send(
                request(token, session, null, null)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
                                + "\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments
                                + "}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return ApiClient.JSON.readTree(answer.body()).path("result");
    }

    private static JsonNode stateless(String token, String tool, String arguments, boolean elicitation)
            throws Exception {
        String capabilities = elicitation ? "{\"elicitation\":{\"form\":{}}}" : "{}";
        String body = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
                + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + "}}}";
        HttpResponse<String> answer = http.send(
                request(token, null, "tools/call", tool)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return ApiClient.JSON.readTree(answer.body()).path("result");
    }

    private static HttpRequest.Builder request(String token, String session, String method, String name) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.server.port() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        if (method != null)
            b.header("MCP-Protocol-Version", "2026-07-28")
                    .header("Mcp-Method", method)
                    .header("Mcp-Name", name);
        return b;
    }

    private static List<String> titles(String token) {
        List<String> titles = new ArrayList<>();
        t.api.get("/v1/tasks?status=all", token)
                .body()
                .path("tasks")
                .forEach(task -> titles.add(task.path("title").asText()));
        return titles;
    }
}
