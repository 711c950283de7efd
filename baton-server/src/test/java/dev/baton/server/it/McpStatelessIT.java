package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.mcp.client.oauth.TokenCipher;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /mcp} in MCP's 2026-07-28 revision, request by request over plain HTTP (the JDK's client), next to the 2025
 * handshake: {@code server/discover} without a session, stateless {@code tools/list} and {@code tools/call} as the
 * token's user, caching hints and {@code resultType}, the mirrored headers checked against the body, an unsupported
 * version answered with the supported ones, and a destructive tool asked about with {@code input_required} — run only
 * after a yes for exactly those arguments, by the same user. The TypeScript SDK drives the same flows in
 * {@link McpTypeScriptClientsIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpStatelessIT {
    static final String REVISION = "2026-07-28";

    @TempDir
    static Path dir;

    TestServer t;
    final HttpClient http = HttpClient.newHttpClient();
    int ids;

    @BeforeAll
    void start() {
        t = TestServer.start(dir, TaskAgentScript.create());
    }

    @AfterAll
    void stop() {
        if (t != null) t.close();
    }

    @Test
    void server_discover_needs_no_session_and_names_every_revision_with_caching_hints() throws Exception {
        String alice = TestServer.token("discover-alice");

        HttpResponse<String> answer = send(alice, request("server/discover", null, Map.of()), Map.of());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Mcp-Session-Id")).isEmpty();
        JsonNode result = json(answer).path("result");
        assertThat(result.path("resultType").asText()).isEqualTo("complete");
        assertThat(texts(result.path("supportedVersions")))
                .containsExactly(REVISION, "2025-11-25", "2025-06-18", "2025-03-26");
        assertThat(result.path("capabilities").has("tools")).isTrue();
        assertThat(result.path("ttlMs").asLong()).isPositive();
        assertThat(result.path("cacheScope").asText()).isEqualTo("public");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText())
                .isEqualTo("baton");
        assertThat(t.api.get("/v1/sessions", alice).body().path("sessions")).isEmpty();
    }

    @Test
    void tools_list_is_the_callers_tools_by_name_private_to_them_on_every_request() throws Exception {
        String alice = TestServer.token("list-alice");

        JsonNode first = result(send(alice, request("tools/list", null, Map.of()), Map.of()));
        JsonNode second = result(send(alice, request("tools/list", null, Map.of()), Map.of()));

        List<String> names = new ArrayList<>();
        first.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names).contains("add_task", "delete_task").isSorted();
        assertThat(second.path("tools")).isEqualTo(first.path("tools"));
        List<String> api = new ArrayList<>();
        t.api.get("/v1/tools", alice)
                .body()
                .path("tools")
                .forEach(tool -> api.add(tool.path("name").asText()));
        assertThat(names).containsExactlyInAnyOrderElementsOf(api);
        assertThat(first.path("resultType").asText()).isEqualTo("complete");
        assertThat(first.path("ttlMs").asLong()).isPositive();
        assertThat(first.path("cacheScope").asText()).isEqualTo("private");
        JsonNode delete = tool(first, "delete_task");
        assertThat(delete.at("/annotations/destructiveHint").asBoolean()).isTrue();
        assertThat(tool(first, "add_task").at("/annotations/destructiveHint").asBoolean())
                .isFalse();
    }

    @Test
    void tools_call_runs_as_the_tokens_user_whatever_meta_claims_and_is_audited() throws Exception {
        String alice = TestServer.token("call-alice");
        ObjectNode params = ApiClient.JSON.createObjectNode().put("name", "add_task");
        params.putObject("arguments").put("title", "Stateless milk");

        ObjectNode request = request("tools/call", "add_task", params);
        ((ObjectNode) request.path("params").path("_meta")).put("dev.baton/userId", "mallory");
        JsonNode result = result(send(alice, request, Map.of()));

        assertThat(result.path("resultType").asText()).isEqualTo("complete");
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(result.at("/structuredContent/task/title").asText()).isEqualTo("Stateless milk");
        assertThat(titles(alice)).containsExactly("Stateless milk");
        assertThat(titles(TestServer.token("mallory"))).isEmpty();
        // recorded in a session of its own, completed when the call ended
        JsonNode sessions =
                t.api.get("/v1/sessions?state=completed", alice).body().path("sessions");
        assertThat(sessions).hasSize(1);
    }

    @Test
    void a_destructive_call_is_asked_about_and_runs_only_after_a_yes_for_those_arguments() throws Exception {
        String alice = TestServer.token("approve-alice");
        String taskId = addTask(alice, "Delete me");
        ObjectNode params = deleteParams(taskId);

        JsonNode asked = result(send(alice, request("tools/call", "delete_task", params, elicitation()), Map.of()));

        assertThat(asked.path("resultType").asText()).as(asked.toString()).isEqualTo("input_required");
        JsonNode question = asked.path("inputRequests").path("baton_approval");
        assertThat(question.path("method").asText()).isEqualTo("elicitation/create");
        assertThat(question.at("/params/mode").asText()).isEqualTo("form");
        assertThat(question.at("/params/message").asText())
                .contains("delete_task")
                .contains(taskId);
        assertThat(question.at("/params/requestedSchema/properties/approve/type")
                        .asText())
                .isEqualTo("boolean");
        String state = asked.path("requestState").asText();
        assertThat(state).isNotBlank();
        assertThat(titles(alice)).containsExactly("Delete me");

        // a retry naming other arguments is asked about again, never run on the answer about this one
        ObjectNode other = deleteParams(addTask(alice, "Keep me"));
        JsonNode again = result(send(alice, retry("delete_task", other, state, "accept", true), Map.of()));
        assertThat(again.path("resultType").asText()).isEqualTo("input_required");
        // another user cannot use alice's answer; a forged state is refused
        HttpResponse<String> stolen = send(
                TestServer.token("approve-mallory"), retry("delete_task", params, state, "accept", true), Map.of());
        assertError(stolen, 400, -32602);
        assertError(send(alice, retry("delete_task", params, state + "x", "accept", true), Map.of()), 400, -32602);
        assertThat(titles(alice)).containsExactlyInAnyOrder("Delete me", "Keep me");

        JsonNode declined = result(send(alice, retry("delete_task", params, state, "decline", null), Map.of()));
        assertThat(declined.path("isError").asBoolean()).isTrue();
        assertThat(declined.at("/content/0/text").asText()).startsWith("approval_denied");
        assertThat(titles(alice)).containsExactlyInAnyOrder("Delete me", "Keep me");

        JsonNode deleted = result(send(alice, retry("delete_task", params, state, "accept", true), Map.of()));
        assertThat(deleted.path("resultType").asText()).isEqualTo("complete");
        assertThat(deleted.path("isError").asBoolean()).as(deleted.toString()).isFalse();
        assertThat(deleted.at("/structuredContent/deleted").asBoolean()).isTrue();
        assertThat(deleted.path("ttlMs").isMissingNode()).isTrue();
        assertThat(titles(alice)).containsExactly("Keep me");
    }

    @Test
    void an_answer_is_accepted_by_another_instance_only_when_the_instances_share_the_token_key(@TempDir Path shared)
            throws Exception {
        String db = TestServer.sqliteUrl(shared);
        Map<String, String> env = Map.of("BATON_TOKEN_KEY", TokenCipher.generateKey());
        TestServer first = t;
        try (LlmSimulator sim = LlmSimulator.start(TaskAgentScript.create());
                TestServer asker = instance(db, env, sim);
                TestServer answerer = instance(db, env, sim);
                TestServer alone = instance(db, Map.of(), sim)) {
            String alice = TestServer.token("shared-alice");
            // the helpers speak to t: each step goes to the instance a load balancer would have picked
            t = asker;
            ObjectNode params = deleteParams(addTask(alice, "Delete me elsewhere"));
            String state = result(send(alice, request("tools/call", "delete_task", params, elicitation()), Map.of()))
                    .path("requestState")
                    .asText();
            assertThat(state).isNotBlank();

            t = alone;
            assertError(send(alice, retry("delete_task", params, state, "accept", true), Map.of()), 400, -32602);
            assertThat(titles(alice)).containsExactly("Delete me elsewhere");

            t = answerer;
            JsonNode deleted = result(send(alice, retry("delete_task", params, state, "accept", true), Map.of()));
            assertThat(deleted.path("isError").asBoolean())
                    .as(deleted.toString())
                    .isFalse();
            assertThat(deleted.at("/structuredContent/deleted").asBoolean()).isTrue();
            assertThat(titles(alice)).isEmpty();
        } finally {
            t = first;
        }
    }

    /** Another server on {@code db}, with {@code env} as its environment. */
    private static TestServer instance(String db, Map<String, String> env, LlmSimulator sim) {
        BatonConfig config = new BatonConfig(
                0,
                db,
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                null,
                env);
        return TestServer.start(config, sim, false, Clock.systemUTC());
    }

    @Test
    void a_destructive_call_from_a_client_that_cannot_be_asked_is_refused_with_a_clear_tool_error() throws Exception {
        String alice = TestServer.token("refuse-alice");
        String taskId = addTask(alice, "Stays");

        JsonNode refused = result(send(alice, request("tools/call", "delete_task", deleteParams(taskId)), Map.of()));

        assertThat(refused.path("resultType").asText()).isEqualTo("complete");
        assertThat(refused.path("isError").asBoolean()).isTrue();
        assertThat(refused.at("/content/0/text").asText())
                .startsWith("approval_required")
                .contains("declares no elicitation");
        assertThat(titles(alice)).containsExactly("Stays");
    }

    @Test
    void a_2025_client_calling_a_destructive_tool_is_refused_and_nothing_is_deleted() throws Exception {
        String alice = TestServer.token("legacy-alice");
        String taskId = addTask(alice, "Stays too");
        HttpResponse<String> initialized = http.send(
                legacy(alice, null)
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                                        + "\"2025-06-18\",\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":"
                                        + "\"curl\",\"version\":\"1\"}}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();

        HttpResponse<String> called = http.send(
                legacy(alice, session)
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                                        + "\"delete_task\",\"arguments\":"
                                        + deleteParams(taskId).path("arguments")
                                        + "}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        JsonNode result = json(called).path("result");
        assertThat(result.path("isError").asBoolean()).as(called.body()).isTrue();
        assertThat(result.at("/content/0/text").asText())
                .startsWith("approval_required")
                .contains("before 2026-07-28");
        assertThat(titles(alice)).containsExactly("Stays too");
    }

    @Test
    void headers_that_do_not_match_the_body_are_a_header_mismatch() throws Exception {
        String alice = TestServer.token("headers-alice");
        ObjectNode params = ApiClient.JSON.createObjectNode().put("name", "list_tasks");
        params.putObject("arguments");
        ObjectNode call = request("tools/call", "list_tasks", params);

        assertError(send(alice, call, Map.of("Mcp-Method", "tools/list")), 400, -32020);
        assertError(send(alice, call, Map.of("Mcp-Name", "add_task")), 400, -32020);
        assertError(send(alice, call, Map.of("Mcp-Name", "")), 400, -32020);
        assertError(send(alice, call, Map.of("MCP-Protocol-Version", "2025-11-25")), 400, -32020);
        assertError(send(alice, call, Map.of("Mcp-Name", "=?base64?not base64?=")), 400, -32020);
        // the Base64 sentinel form of the right name is the name
        String encoded =
                "=?base64?" + Base64.getEncoder().encodeToString("list_tasks".getBytes(StandardCharsets.UTF_8)) + "?=";
        assertThat(result(send(alice, call, Map.of("Mcp-Name", encoded)))
                        .path("isError")
                        .asBoolean())
                .isFalse();
        assertThat(titles(alice)).isEmpty();
    }

    @Test
    void an_unsupported_version_is_answered_with_the_supported_ones() throws Exception {
        String alice = TestServer.token("version-alice");
        ObjectNode request = request("tools/list", null, Map.of());
        ((ObjectNode) request.path("params").path("_meta"))
                .put("io.modelcontextprotocol/protocolVersion", "2099-01-01");

        HttpResponse<String> answer = send(alice, request, Map.of("MCP-Protocol-Version", "2099-01-01"));

        assertError(answer, 400, -32022);
        JsonNode data = json(answer).at("/error/data");
        assertThat(texts(data.path("supported"))).containsExactly(REVISION, "2025-11-25", "2025-06-18", "2025-03-26");
        assertThat(data.path("requested").asText()).isEqualTo("2099-01-01");
    }

    @Test
    void a_request_without_meta_or_its_capabilities_is_invalid_params_and_an_unknown_method_is_404() throws Exception {
        String alice = TestServer.token("meta-alice");
        ObjectNode withoutMeta = request("tools/list", null, Map.of());
        ((ObjectNode) withoutMeta.path("params")).remove("_meta");
        ObjectNode withoutCapabilities = request("tools/list", null, Map.of());
        ((ObjectNode) withoutCapabilities.path("params").path("_meta"))
                .remove("io.modelcontextprotocol/clientCapabilities");

        assertError(send(alice, withoutMeta, Map.of()), 400, -32602);
        assertError(send(alice, withoutCapabilities, Map.of()), 400, -32602);
        assertError(send(alice, request("no/such/method", null, Map.of()), Map.of()), 404, -32601);
        ObjectNode unknownTool = ApiClient.JSON.createObjectNode().put("name", "no_such_tool");
        assertError(send(alice, request("tools/call", "no_such_tool", unknownTool), Map.of()), 400, -32602);
        // without a token it is the API's 401, as for every request
        HttpResponse<String> anonymous = http.send(
                base(null, request("tools/list", null, Map.of()), Map.of()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
    }

    // --- helpers

    private String addTask(String token, String title) throws Exception {
        ObjectNode params = ApiClient.JSON.createObjectNode().put("name", "add_task");
        params.putObject("arguments").put("title", title);
        JsonNode added = result(send(token, request("tools/call", "add_task", params), Map.of()));
        assertThat(added.path("isError").asBoolean()).as(added.toString()).isFalse();
        return added.at("/structuredContent/task/id").asText();
    }

    private static ObjectNode deleteParams(String taskId) {
        ObjectNode params = ApiClient.JSON.createObjectNode().put("name", "delete_task");
        params.putObject("arguments").put("taskId", taskId).put("confirmation", true);
        return params;
    }

    private static ObjectNode elicitation() {
        ObjectNode capabilities = ApiClient.JSON.createObjectNode();
        capabilities.putObject("elicitation").putObject("form");
        return capabilities;
    }

    private ObjectNode retry(String tool, ObjectNode params, String state, String action, Boolean approve) {
        ObjectNode retried = params.deepCopy();
        retried.put("requestState", state);
        ObjectNode answer = retried.putObject("inputResponses").putObject("baton_approval");
        answer.put("action", action);
        if (approve != null) answer.putObject("content").put("approve", approve);
        return request("tools/call", tool, retried, elicitation());
    }

    private ObjectNode request(String method, String name, Object params) {
        return request(method, name, params, ApiClient.JSON.createObjectNode());
    }

    /** A 2026-07-28 request: its version, client and capabilities in {@code _meta}; {@code name} for Mcp-Name. */
    private ObjectNode request(String method, String name, Object params, ObjectNode capabilities) {
        ObjectNode request =
                ApiClient.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++ids);
        request.put("method", method);
        ObjectNode p = ((ObjectNode) ApiClient.JSON.valueToTree(params)).deepCopy();
        ObjectNode meta = p.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", REVISION);
        meta.putObject("io.modelcontextprotocol/clientInfo")
                .put("name", "jdk-http")
                .put("version", "1");
        meta.set("io.modelcontextprotocol/clientCapabilities", capabilities);
        request.set("params", p);
        if (name != null) request.put("x-name", name);
        return request;
    }

    /** POSTs a request with the headers it should have, then {@code overrides} on top (an empty value removes one). */
    private HttpResponse<String> send(String token, ObjectNode request, Map<String, String> overrides)
            throws Exception {
        return http.send(base(token, request, overrides).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder base(String token, ObjectNode request, Map<String, String> overrides) {
        ObjectNode body = request.deepCopy();
        String name = body.has("x-name") ? body.remove("x-name").asText() : null;
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("MCP-Protocol-Version", REVISION);
        headers.put("Mcp-Method", body.path("method").asText());
        if (name != null) headers.put("Mcp-Name", name);
        headers.putAll(overrides);
        HttpRequest.Builder b = HttpRequest.newBuilder(mcp())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        headers.forEach((header, value) -> {
            if (!value.isEmpty()) b.header(header, value);
        });
        if (token != null) b.header("Authorization", "Bearer " + token);
        return b;
    }

    private HttpRequest.Builder legacy(String token, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(mcp())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        return b;
    }

    private URI mcp() {
        return URI.create("http://127.0.0.1:" + t.server.port() + "/mcp");
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return ApiClient.JSON.readTree(response.body());
    }

    private static JsonNode result(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = json(response);
        assertThat(answer.has("error")).as(response.body()).isFalse();
        return answer.path("result");
    }

    private static void assertError(HttpResponse<String> response, int status, int code) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode answer = json(response);
        assertThat(answer.at("/error/code").asInt()).as(response.body()).isEqualTo(code);
        assertThat(answer.at("/error/message").asText()).isNotBlank();
    }

    private static JsonNode tool(JsonNode list, String name) {
        for (JsonNode tool : list.path("tools")) if (tool.path("name").asText().equals(name)) return tool;
        throw new AssertionError(name + " not listed: " + list);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(v -> texts.add(v.asText()));
        return texts;
    }

    private List<String> titles(String token) {
        List<String> titles = new ArrayList<>();
        t.api.get("/v1/tasks?status=all", token)
                .body()
                .path("tasks")
                .forEach(task -> titles.add(task.path("title").asText()));
        return titles;
    }
}
