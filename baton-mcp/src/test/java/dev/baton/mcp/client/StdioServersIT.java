package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP reference servers from npm, started over stdio by Baton itself: their tools are listed under namespaced
 * names and called through the core's executor, results keep what the server sent, and the servers' processes get
 * nothing of Baton's environment but what is configured.
 */
class StdioServersIT {
    @TempDir
    Path dir;

    McpClients clients;
    ToolCalls calls;
    final Principal alice = ToolCalls.user("alice", "mcp:everything", "mcp:memory");

    @BeforeEach
    void start() {
        String node = NpmPackages.node();
        Path everything = NpmPackages.script("@modelcontextprotocol/server-everything", "dist/index.js");
        Path memory = NpmPackages.script("@modelcontextprotocol/server-memory", "dist/index.js");
        McpSettings settings = McpSettings.parse(
                Yaml.parse("""
                        servers:
                          everything:
                            command: "%s"
                            args: ["%s", "stdio"]
                            env: { GREETING: "${GREETING}" }
                            state: shared
                            sharedWith: [tester]
                            trusted: true
                          memory:
                            state: shared
                            sharedWith: [tester]
                            trusted: true
                            command: "%s"
                            args: ["%s"]
                            env: { MEMORY_FILE_PATH: "%s" }
                        """.formatted(node, everything, node, memory, dir.resolve("memory.jsonl"))),
                Map.of("GREETING", "hello from baton.yaml"));
        clients = McpClients.start(settings, new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        calls = new ToolCalls(clients.toolSources(), List.of("mcp:everything/*", "mcp:memory/*"), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        if (clients != null) clients.close();
    }

    @Test
    void both_servers_are_up_and_their_tools_are_namespaced_per_server() {
        assertThat(clients.status()).allSatisfy(s -> assertThat(s.up()).isTrue());
        assertThat(clients.status()).extracting(ServerStatus::wire).containsOnly("stdio");
        assertThat(calls.catalog().visibleTo(calls.agent()))
                .extracting(t -> t.definition().name())
                .contains(
                        "everything__echo",
                        "everything__get-sum",
                        "memory__create_entities",
                        "memory__read_graph",
                        "memory__delete_entities");
        assertThat(calls.catalog().sourceOf("memory__read_graph")).contains("mcp:memory");
        assertThat(calls.catalog().visibleTo(calls.agent()))
                .extracting(t -> t.definition().requiredPermissions())
                .allSatisfy(p -> assertThat(p).containsAnyOf("mcp:everything", "mcp:memory"));
    }

    @Test
    void an_allow_list_entry_naming_one_tool_admits_that_tool_only() {
        ToolCalls narrow = new ToolCalls(clients.toolSources(), List.of("mcp:memory/read_graph"), Clock.systemUTC());

        assertThat(narrow.catalog().visibleTo(narrow.agent()))
                .extracting(t -> t.definition().name())
                .containsExactly("memory__read_graph");
        ToolCallOutcome refused = narrow.call(alice, "memory__create_entities", "{\"entities\":[]}");
        assertThat(refused.error().code()).isEqualTo("unknown_tool");
    }

    @Test
    void a_call_goes_through_the_executor_and_the_server_answers() {
        ToolCallOutcome sum = calls.call(alice, "everything__get-sum", "{\"a\":2,\"b\":40}");

        assertThat(sum.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(sum.result().path("text").asText()).contains("42");
    }

    @Test
    void arguments_that_break_the_servers_schema_never_reach_it() {
        ToolCallOutcome bad = calls.call(alice, "everything__get-sum", "{\"a\":\"two\",\"b\":40}");

        assertThat(bad.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
        assertThat(bad.error().message()).contains("/a");
    }

    @Test
    void a_caller_without_the_servers_permission_is_denied() {
        Principal bob = ToolCalls.user("bob", "mcp:memory");

        ToolCallOutcome denied = calls.call(bob, "everything__echo", "{\"message\":\"hi\"}");

        assertThat(denied.state()).isEqualTo(ToolCallState.DENIED);
        assertThat(calls.call(bob, "memory__read_graph", "{}").state()).isEqualTo(ToolCallState.SUCCEEDED);
    }

    @Test
    void structured_content_comes_back_as_the_structured_object() {
        ToolCallOutcome weather = calls.call(alice, "everything__get-structured-content", "{\"location\":\"Chicago\"}");

        assertThat(weather.result().path("temperature").asInt()).isEqualTo(36);
        assertThat(weather.result().path("conditions").asText()).isEqualTo("Light rain / drizzle");
    }

    @Test
    void an_image_is_summarised_next_to_the_text_never_dropped() {
        ToolCallOutcome image = calls.call(alice, "everything__get-tiny-image", "{}");

        JsonNode result = image.result();
        assertThat(result.path("text").asText()).isNotBlank();
        JsonNode attachment = result.path("attachments").get(0);
        assertThat(attachment.path("type").asText()).isEqualTo("image");
        assertThat(attachment.path("mimeType").asText()).isEqualTo("image/png");
        assertThat(attachment.path("bytes").asLong()).isPositive();
        assertThat(result.toString()).doesNotContain("iVBOR"); // no base64 for the model
    }

    @Test
    void embedded_resources_and_resource_links_are_summarised() {
        String data = "data:text/plain;base64,aGVsbG8gd29ybGQ=";

        JsonNode embedded = calls.call(
                        alice,
                        "everything__gzip-file-as-resource",
                        "{\"name\":\"a.gz\",\"data\":\"" + data + "\",\"outputType\":\"resource\"}")
                .result();
        JsonNode linked = calls.call(
                        alice,
                        "everything__gzip-file-as-resource",
                        "{\"name\":\"b.gz\",\"data\":\"" + data + "\",\"outputType\":\"resourceLink\"}")
                .result();

        JsonNode resource = embedded.path("attachments").get(0);
        assertThat(resource.path("type").asText()).isEqualTo("resource");
        assertThat(resource.path("mimeType").asText()).isEqualTo("application/gzip");
        assertThat(resource.path("bytes").asLong()).isPositive();
        JsonNode link = linked.path("attachments").get(0);
        assertThat(link.path("type").asText()).isEqualTo("resource_link");
        assertThat(link.path("uri").asText()).isNotBlank();
    }

    @Test
    void an_error_result_reaches_the_model_as_a_tool_error_with_the_servers_words() {
        ToolCallOutcome failed = calls.call(
                alice, "everything__gzip-file-as-resource", "{\"name\":\"x.gz\",\"data\":\"ftp://example.com/x\"}");

        assertThat(failed.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(failed.error().code()).isEqualTo("mcp_tool_error");
        assertThat(failed.error().message()).contains("Unsupported URL protocol");
    }

    @Test
    void a_server_process_sees_only_the_safe_variables_and_its_configured_ones() throws Exception {
        ToolCallOutcome env = calls.call(alice, "everything__get-env", "{}");

        JsonNode vars = Yaml.parse(env.result().path("text").asText());
        List<String> names = iterable(vars.fieldNames());
        assertThat(names).contains("GREETING").isSubsetOf(allowedNames());
        assertThat(vars.path("GREETING").asText()).isEqualTo("hello from baton.yaml");
    }

    @Test
    void destructive_tools_are_marked_as_needing_confirmation_and_read_only_ones_are_not() {
        Map<String, Boolean> confirmation = new java.util.HashMap<>();
        for (Tool tool : calls.catalog().visibleTo(calls.agent())) {
            confirmation.put(tool.definition().name(), tool.definition().destructive());
        }

        assertThat(confirmation)
                .containsEntry("memory__delete_entities", true)
                .containsEntry("memory__create_entities", false)
                .containsEntry("memory__read_graph", false);
    }

    @Test
    void the_memory_server_keeps_what_one_call_wrote_for_the_next() {
        ToolCallOutcome created = calls.call(
                alice,
                "memory__create_entities",
                "{\"entities\":[{\"name\":\"Baton\",\"entityType\":\"project\",\"observations\":[\"speaks MCP\"]}]}");
        ToolCallOutcome graph = calls.call(alice, "memory__read_graph", "{}");

        assertThat(created.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(graph.result().toString()).contains("Baton").contains("speaks MCP");
    }

    private static Set<String> allowedNames() {
        Set<String> names = new java.util.HashSet<>(StdioProcessTransport.INHERITED);
        names.add("GREETING");
        return names;
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
