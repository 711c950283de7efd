package dev.baton.server.it;

import static dev.baton.server.it.McpFixture.q;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.npm.NpmPackages;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's memory example, made safe: {@code server-memory} with {@code state: perUser} runs a process and a data
 * file per user, so two students holding the same role neither see nor change each other's memory — in chat turns
 * (the simulator calls the tools) and over Baton's own {@code /mcp}. A server whose data is shared is only for the roles
 * it is shared with, and the catalogue says so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpUserStateIT {
    static final String MEMO = """
            id: memo
            name: Memory assistant
            model: simulator:default
            tools: ["mcp:memory/*", "mcp:team/*"]
            systemPrompt: You remember what the user tells you.
            """;

    @TempDir
    static Path dir;

    TestServer t;
    final String alice = TestServer.token("alice", "student");
    final String bob = TestServer.token("bob", "student");
    final String admin = TestServer.token("root", "admin");
    final HttpClient http = HttpClient.newHttpClient();
    final AtomicInteger ids = new AtomicInteger(1);

    @BeforeAll
    void start() {
        String node = NpmPackages.node();
        Path memory = NpmPackages.script("@modelcontextprotocol/server-memory", "dist/index.js");
        String yaml = """
                mcp:
                  servers:
                    memory:
                      command: %s
                      args: [%s]
                      env: { MEMORY_FILE_PATH: %s }
                      state: perUser
                      tools:
                        read_graph: { destructive: false }
                        create_entities: { destructive: false }
                        add_observations: { destructive: false }
                    team:
                      command: %s
                      args: [%s]
                      env: { MEMORY_FILE_PATH: %s }
                      state: shared
                      sharedWith: [admin]
                      permissions: [mcp:memory]
                """.formatted(
                        q(node),
                        q(memory),
                        q(dir.resolve("memory-${BATON_USER_KEY}.jsonl")),
                        q(node),
                        q(memory),
                        q(dir.resolve("team.jsonl")));
        SimulatorScript script = SimulatorScript.builder()
                .whenUserMatches(
                        "remember (\\w+)",
                        Reply.toolCall(
                                "memory__create_entities",
                                "{\"entities\":[{\"name\":\"$1\",\"entityType\":\"note\",\"observations\":[\"told\"]}]}"))
                .whenToolResult("memory__create_entities", Reply.text("Remembered."))
                .whenUserMatches(
                        "note on (\\w+)",
                        Reply.toolCall(
                                "memory__add_observations",
                                "{\"observations\":[{\"entityName\":\"$1\",\"contents\":[\"poisoned\"]}]}"))
                .whenToolResult("memory__add_observations", Reply.text("Noted."))
                .whenUserSays("what do you remember", Reply.toolCall("memory__read_graph", "{}"))
                .when(
                        Condition.ToolResult.of("memory__read_graph", "\"name\":\"(\\w+)\""),
                        Reply.text("I remember $1."))
                .whenToolResult("memory__read_graph", Reply.text("I remember nothing."))
                .build();
        t = TestServer.start(
                McpFixture.config(dir, yaml, Map.of("memo", MEMO), Map.of()),
                LlmSimulator.start(script),
                true,
                Clock.systemUTC());
    }

    @AfterAll
    void stop() {
        if (t != null) t.close();
    }

    @Test
    void two_students_neither_see_nor_change_each_others_memory_in_chat_turns() {
        String alices = t.api.startSession(alice, "memo");
        String bobs = t.api.startSession(bob, "memo");

        assertThat(say(alice, alices, "remember AliceChatSecret").path("answer").asText())
                .isEqualTo("Remembered.");
        JsonNode bobReads = say(bob, bobs, "what do you remember");
        JsonNode bobWrites = say(bob, bobs, "note on AliceChatSecret");
        JsonNode aliceReads = say(alice, alices, "what do you remember");

        assertThat(bobReads.path("answer").asText()).isEqualTo("I remember nothing.");
        assertThat(result(bobReads)).doesNotContain("AliceChatSecret");
        // bob's memory has no such entity, so the server refuses; alice's is untouched
        assertThat(bobWrites.path("toolCalls").get(0).path("state").asText()).isEqualTo("failed");
        assertThat(aliceReads.path("answer").asText()).startsWith("I remember ").isNotEqualTo("I remember nothing.");
        assertThat(result(aliceReads)).contains("AliceChatSecret").doesNotContain("poisoned");
        // one process each (and none for the server whose data is shared)
        JsonNode servers = t.api.get("/v1/admin/mcp/servers", admin).body().path("servers");
        assertThat(servers.get(0).path("name").asText()).isEqualTo("memory");
        assertThat(servers.get(0).path("userProcesses").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(servers.get(1).has("userProcesses")).isFalse();
    }

    @Test
    void over_baton_mcp_endpoint_too_each_user_reads_and_writes_only_their_own_memory() throws Exception {
        String alicesSession = initialize(alice);
        String bobsSession = initialize(bob);

        JsonNode created = callTool(
                alice,
                alicesSession,
                "memory__create_entities",
                "{\"entities\":[{\"name\":\"AliceMcpSecret\",\"entityType\":\"note\",\"observations\":[\"mine\"]}]}");
        JsonNode bobsGraph = callTool(bob, bobsSession, "memory__read_graph", "{}");
        JsonNode bobsWrite = callTool(
                bob,
                bobsSession,
                "memory__add_observations",
                "{\"observations\":[{\"entityName\":\"AliceMcpSecret\",\"contents\":[\"poisoned over mcp\"]}]}");
        JsonNode alicesGraph = callTool(alice, alicesSession, "memory__read_graph", "{}");

        assertThat(created.path("result").path("isError").asBoolean())
                .as(created.toString())
                .isFalse();
        assertThat(bobsGraph.path("result").path("isError").asBoolean())
                .as(bobsGraph.toString())
                .isFalse();
        assertThat(bobsGraph.toString()).doesNotContain("AliceMcpSecret").doesNotContain("AliceChatSecret");
        assertThat(bobsWrite.path("result").path("isError").asBoolean())
                .as(bobsWrite.toString())
                .isTrue();
        assertThat(alicesGraph.toString()).contains("AliceMcpSecret").doesNotContain("poisoned over mcp");
    }

    @Test
    void a_shared_servers_tools_are_marked_and_only_for_the_roles_it_is_shared_with() throws Exception {
        JsonNode studentTools = t.api.get("/v1/tools", alice).body().path("tools");
        JsonNode adminTools = t.api.get("/v1/tools", admin).body().path("tools");

        assertThat(byName(studentTools, "team__read_graph")).isNull();
        assertThat(byName(adminTools, "team__read_graph").path("sharedData").asBoolean())
                .isTrue();
        assertThat(byName(studentTools, "memory__read_graph").has("sharedData")).isFalse();
        // nor over /mcp: a student's call of the shared tool is refused like an unknown one
        JsonNode refused = callTool(alice, initialize(alice), "team__read_graph", "{}");
        assertThat(refused.toString()).doesNotContain("\"entities\"");
        assertThat(refused.has("error")
                        || refused.path("result").path("isError").asBoolean())
                .as(refused.toString())
                .isTrue();
    }

    private JsonNode say(String token, String session, String content) {
        var r = t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                ApiClient.JSON.createObjectNode().put("content", content).toString());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    private static String result(JsonNode turn) {
        return turn.path("toolCalls").get(0).path("result").toString();
    }

    private String initialize(String token) throws Exception {
        HttpResponse<String> r = post(
                token,
                null,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                        .statusCode())
                .isEqualTo(202);
        return session;
    }

    private JsonNode callTool(String token, String session, String name, String arguments) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + ids.incrementAndGet()
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}}";
        HttpResponse<String> r = post(token, session, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiClient.JSON.readTree(r.body());
    }

    private HttpResponse<String> post(String token, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.server.port() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) b.header("Mcp-Session-Id", session);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode byName(JsonNode tools, String name) {
        for (JsonNode tool : tools) {
            if (tool.path("name").asText().equals(name)) return tool;
        }
        return null;
    }
}
