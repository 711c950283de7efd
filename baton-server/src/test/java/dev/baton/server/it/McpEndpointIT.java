package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.npm.NpmPackages;
import java.io.IOException;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baton's tools over MCP at {@code /mcp}, with the official TypeScript SDK's client from npm as the peer: it lists the
 * same tools with the same schemas as {@code GET /v1/tools}, a {@code tools/call} of add_task creates the task for the
 * token's user whatever the client claims, the call is in the audit, and bad requests get precise statuses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpEndpointIT {
    /** Connects, lists, calls what CALLS names, ends the session, and prints all of it as one JSON line. */
    static final String CLIENT = """
            import { Client } from "@modelcontextprotocol/sdk/client/index.js";
            import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

            const [url, token] = process.argv.slice(2);
            const transport = new StreamableHTTPClientTransport(new URL(url), {
              requestInit: { headers: { Authorization: `Bearer ${token}` } },
            });
            const client = new Client({ name: "baton-it", version: "1.0.0" });
            await client.connect(transport);
            const sessionId = transport.sessionId;
            const listed = await client.listTools();
            const results = [];
            for (const call of JSON.parse(process.env.CALLS ?? "[]")) {
              try {
                results.push(await client.callTool({ name: call.name, arguments: call.arguments, _meta: call._meta }));
              } catch (e) {
                results.push({ thrown: String(e.message ?? e) });
              }
            }
            await transport.terminateSession();
            await client.close();
            console.log(JSON.stringify({ sessionId, protocolVersion: transport.protocolVersion, tools: listed.tools, results }));
            """;

    @TempDir
    static Path dir;

    TestServer t;
    Path client;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws IOException {
        client = NpmPackages.require().resolve("mcp-endpoint-client.mjs");
        Files.writeString(client, CLIENT);
        t = TestServer.start(dir, TaskAgentScript.create());
    }

    @AfterAll
    void stop() {
        if (t != null) t.close();
    }

    @Test
    void the_typescript_client_lists_the_tools_of_get_v1_tools_with_the_same_schemas() throws Exception {
        String alice = TestServer.token("mcp-alice", "student");

        JsonNode run = runClient(alice, List.of());

        Map<String, JsonNode> overMcp = new HashMap<>();
        run.path("tools").forEach(tool -> overMcp.put(tool.path("name").asText(), tool));
        Map<String, JsonNode> overApi = new HashMap<>();
        t.api.get("/v1/tools", alice)
                .body()
                .path("tools")
                .forEach(tool -> overApi.put(tool.path("name").asText(), tool));
        assertThat(overMcp.keySet()).isNotEmpty().isEqualTo(overApi.keySet()).contains("add_task");
        overApi.forEach((name, api) -> {
            assertThat(overMcp.get(name).path("inputSchema")).as(name).isEqualTo(api.path("parameters"));
            assertThat(overMcp.get(name).path("description").asText())
                    .as(name)
                    .isEqualTo(api.path("description").asText());
        });
        assertThat(run.path("sessionId").asText()).isNotBlank();
    }

    @Test
    void add_task_creates_the_task_for_the_tokens_user_whoever_the_client_names_and_is_audited() throws Exception {
        String alice = TestServer.token("mcp-owner", "student");
        String mallory = TestServer.token("mallory", "student");
        ObjectNode call = ApiClient.JSON.createObjectNode().put("name", "add_task");
        call.putObject("arguments").put("title", "Written over MCP");
        call.putObject("_meta").put("dev.baton/userId", "mallory").put("userId", "mallory");

        JsonNode run = runClient(alice, List.of(call));

        JsonNode result = run.path("results").get(0);
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(result.path("structuredContent").path("task").path("title").asText())
                .isEqualTo("Written over MCP");
        assertThat(titles(alice)).contains("Written over MCP");
        assertThat(titles(mallory)).doesNotContain("Written over MCP");

        String sessionId = run.path("sessionId").asText();
        assertThat(auditedCalls(sessionId)).containsExactly("add_task:succeeded:mcp-owner");
        // the client ended its session: it is completed, and refused from now on
        assertThat(t.api.get("/v1/sessions/" + sessionId, alice)
                        .body()
                        .path("state")
                        .asText())
                .isEqualTo("completed");
        assertThat(post(alice, sessionId, initialized(), "application/json").statusCode())
                .isEqualTo(404);
    }

    @Test
    void a_caller_sees_and_calls_only_what_their_permissions_allow() throws Exception {
        String viewer = TestServer.token("mcp-viewer", "viewer");
        ObjectNode call = ApiClient.JSON.createObjectNode().put("name", "add_task");
        call.putObject("arguments").put("title", "not allowed");

        JsonNode run = runClient(viewer, List.of(call));

        List<String> names = new ArrayList<>();
        run.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names).contains("list_tasks").doesNotContain("add_task", "delete_task");
        JsonNode refused = run.path("results").get(0);
        assertThat(refused.has("thrown") || refused.path("isError").asBoolean())
                .as(refused.toString())
                .isTrue();
        assertThat(titles(viewer)).doesNotContain("not allowed");
    }

    @Test
    void bad_requests_get_precise_statuses_and_error_bodies() throws Exception {
        String alice = TestServer.token("mcp-errors", "student");
        String bob = TestServer.token("mcp-bob", "student");
        String session = initializedSession(alice);

        assertError(post(null, null, initialize(), "application/json"), 401, "unauthorized");
        assertError(post(alice, null, initialize(), "text/plain"), 415, "unsupported_media_type");
        assertError(post(alice, session, "{not json", "application/json"), 400, "invalid_request");
        assertError(post(alice, session, "[" + initialized() + "]", "application/json"), 400, "invalid_request");
        assertError(post(alice, null, initialized(), "application/json"), 400, "invalid_request");
        assertError(post(alice, "no-such-session", initialized(), "application/json"), 404, "not_found");
        assertError(post(bob, session, initialized(), "application/json"), 404, "not_found");
        assertError(
                send(HttpRequest.newBuilder(mcp())
                        .header("Authorization", "Bearer " + alice)
                        .GET()),
                405,
                "method_not_allowed");
        assertError(
                send(request(alice, session, initialized(), "application/json")
                        .header("MCP-Protocol-Version", "1999-01-01")),
                400,
                "unsupported_protocol_version");
        assertError(
                post(
                        alice,
                        session,
                        "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"p\":\"" + "x".repeat(300 * 1024) + "\"}}",
                        "application/json"),
                413,
                "payload_too_large");
        // a protocol-level mistake is a JSON-RPC error, as MCP clients expect
        HttpResponse<String> unknown = post(
                alice, session, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"no/such/method\"}", "application/json");
        assertThat(unknown.statusCode()).isEqualTo(200);
        assertThat(ApiClient.JSON
                        .readTree(unknown.body())
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(-32601);
        assertThat(post(alice, session, initialized(), "application/json").statusCode())
                .isEqualTo(202);
    }

    private void assertError(HttpResponse<String> response, int status, String code) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode error = ApiClient.JSON.readTree(response.body()).path("error");
        assertThat(error.path("code").asText()).as(response.body()).isEqualTo(code);
        assertThat(error.path("requestId").asText()).isNotBlank();
    }

    private String initializedSession(String token) throws Exception {
        HttpResponse<String> initialized = post(token, null, initialize(), "application/json");
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static String initialize() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\",\"version\":\"1\"}}}";
    }

    private static String initialized() {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    }

    private URI mcp() {
        return URI.create("http://127.0.0.1:" + t.server.port() + "/mcp");
    }

    private HttpRequest.Builder request(String token, String session, String body, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(mcp())
                .header("Content-Type", contentType)
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session);
        return b;
    }

    private HttpResponse<String> post(String token, String session, String body, String contentType) throws Exception {
        return send(request(token, session, body, contentType));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<String> titles(String token) {
        List<String> titles = new ArrayList<>();
        t.api.get("/v1/tasks?status=all", token)
                .body()
                .path("tasks")
                .forEach(task -> titles.add(task.path("title").asText()));
        return titles;
    }

    private List<String> auditedCalls(String sessionId) throws Exception {
        List<String> calls = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(t.databaseUrl);
                PreparedStatement ps = c.prepareStatement("SELECT t.tool_name, t.state, s.user_id FROM tool_calls t"
                        + " JOIN sessions s ON s.id = t.session_id WHERE t.session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next())
                    calls.add(rs.getString(1) + ":" + rs.getString(2).toLowerCase() + ":" + rs.getString(3));
            }
        }
        return calls;
    }

    /** Runs the TypeScript SDK client against /mcp and returns what it printed. */
    private JsonNode runClient(String token, List<ObjectNode> calls) throws Exception {
        ArrayNode callList = ApiClient.JSON.createArrayNode();
        calls.forEach(callList::add);
        ProcessBuilder builder = new ProcessBuilder(NpmPackages.node(), client.toString(), mcp().toString(), token)
                .redirectErrorStream(false);
        builder.environment().put("CALLS", callList.toString());
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return ApiClient.JSON.readTree(out.lines().reduce((a, b) -> b).orElseThrow());
    }
}
