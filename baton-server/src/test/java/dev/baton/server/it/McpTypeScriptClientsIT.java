package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.npm.NpmPackages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /mcp} with MCP clients nobody here wrote, from npm: the TypeScript SDK's v2 client
 * ({@code @modelcontextprotocol/client}), which probes with {@code server/discover} and speaks 2026-07-28 — tools,
 * calls as the token's user, and a destructive call asked about through its elicitation handler, run on yes and not
 * on no — and, in its default mode, the 2025 handshake; and the MCP Inspector 2.x's CLI in both eras.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpTypeScriptClientsIT {
    /**
     * Connects (era per ERA: auto probes with server/discover, legacy does the 2025 handshake), lists, adds a task,
     * deletes it answering the approval question with ANSWER, and prints all of it as one JSON line.
     */
    static final String CLIENT = """
            import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

            const [url, token] = process.argv.slice(2);
            const transport = new StreamableHTTPClientTransport(new URL(url), {
              requestInit: { headers: { Authorization: `Bearer ${token}` } },
            });
            const client = new Client(
              { name: "baton-it", version: "1.0.0" },
              { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: process.env.ERA } },
            );
            const asked = [];
            client.setRequestHandler("elicitation/create", async (request) => {
              asked.push(request.params.message);
              return process.env.ANSWER === "yes"
                ? { action: "accept", content: { approve: true } }
                : { action: "decline" };
            });
            await client.connect(transport);
            const version = client.getNegotiatedProtocolVersion();
            const discovered = client.getDiscoverResult() ?? null;
            const listed = await client.listTools();
            const added = await client.callTool({ name: "add_task", arguments: { title: process.env.TITLE } });
            const taskId = added.structuredContent.task.id;
            let deleted;
            try {
              deleted = await client.callTool({ name: "delete_task", arguments: { taskId, confirmation: true } });
            } catch (e) {
              deleted = { thrown: String(e.message ?? e) };
            }
            await client.close();
            console.log(JSON.stringify({ version, discovered, tools: listed.tools.map((t) => t.name), added, deleted, asked }));
            """;

    @TempDir
    static Path dir;

    TestServer t;
    Path npm;
    Path client;

    @BeforeAll
    void start() throws Exception {
        npm = NpmPackages.require(
                Path.of("target", "npm-mcp2026"), List.of(NpmPackages.TYPESCRIPT_CLIENT, NpmPackages.INSPECTOR));
        client = npm.resolve("mcp-2026-client.mjs");
        Files.writeString(client, CLIENT);
        t = TestServer.start(dir, TaskAgentScript.create());
    }

    @AfterAll
    void stop() {
        if (t != null) t.close();
    }

    @Test
    void the_v2_client_negotiates_2026_07_28_and_deletes_only_after_its_user_says_yes() throws Exception {
        String alice = TestServer.token("ts2026-alice");

        JsonNode run = runClient(alice, Map.of("ERA", "auto", "ANSWER", "yes", "TITLE", "Asked then deleted"));

        assertThat(run.path("version").asText()).isEqualTo("2026-07-28");
        assertThat(run.at("/discovered/supportedVersions/0").asText()).isEqualTo("2026-07-28");
        List<String> tools = texts(run.path("tools"));
        assertThat(tools).contains("add_task", "delete_task").isSorted();
        List<String> api = new ArrayList<>();
        t.api.get("/v1/tools", alice)
                .body()
                .path("tools")
                .forEach(tool -> api.add(tool.path("name").asText()));
        assertThat(tools).containsExactlyInAnyOrderElementsOf(api);
        assertThat(run.path("added").path("isError").asBoolean()).isFalse();
        assertThat(run.path("asked")).hasSize(1);
        assertThat(run.path("asked").get(0).asText()).contains("delete_task");
        assertThat(run.path("deleted").path("isError").asBoolean())
                .as(run.toString())
                .isFalse();
        assertThat(run.at("/deleted/structuredContent/deleted").asBoolean()).isTrue();
        assertThat(titles(alice)).isEmpty();
    }

    @Test
    void the_v2_client_whose_user_says_no_deletes_nothing() throws Exception {
        String bob = TestServer.token("ts2026-bob");

        JsonNode run = runClient(bob, Map.of("ERA", "auto", "ANSWER", "no", "TITLE", "Asked and kept"));

        assertThat(run.path("version").asText()).isEqualTo("2026-07-28");
        assertThat(run.path("asked")).hasSize(1);
        assertThat(run.path("deleted").path("isError").asBoolean())
                .as(run.toString())
                .isTrue();
        assertThat(run.at("/deleted/content/0/text").asText()).startsWith("approval_denied");
        assertThat(titles(bob)).containsExactly("Asked and kept");
    }

    @Test
    void the_v2_client_in_its_default_mode_uses_the_2025_handshake_and_is_refused_the_destructive_call()
            throws Exception {
        String carol = TestServer.token("ts2025-carol");

        JsonNode run = runClient(carol, Map.of("ERA", "legacy", "ANSWER", "yes", "TITLE", "Handshake task"));

        assertThat(run.path("version").asText()).startsWith("2025-");
        assertThat(run.path("added").path("isError").asBoolean()).isFalse();
        assertThat(run.path("asked")).isEmpty();
        assertThat(run.path("deleted").path("isError").asBoolean())
                .as(run.toString())
                .isTrue();
        assertThat(run.at("/deleted/content/0/text").asText()).startsWith("approval_required");
        assertThat(titles(carol)).containsExactly("Handshake task");
    }

    @Test
    void the_inspector_cli_lists_and_calls_in_both_eras() throws Exception {
        String dave = TestServer.token("inspector-dave");

        for (String era : List.of("modern", "legacy")) {
            JsonNode listed = inspector(dave, era, "--method", "tools/list");
            List<String> names = new ArrayList<>();
            listed.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
            assertThat(names).as(era + ": " + listed).contains("add_task", "delete_task");

            JsonNode added = inspector(
                    dave, era, "--method", "tools/call", "--tool-name", "add_task", "--tool-arg", "title=" + era);
            assertThat(added.path("isError").asBoolean()).as(era + ": " + added).isFalse();
            if (era.equals("modern")) {
                // no handshake, so no session but the one call's own, completed when it ended
                assertThat(sessions(dave, "?state=active")).isZero();
                assertThat(sessions(dave, "?state=completed")).isEqualTo(1);
            }
        }
        // the 2025 handshake started a session per run
        assertThat(sessions(dave, "")).isEqualTo(3);
        assertThat(titles(dave)).containsExactlyInAnyOrder("modern", "legacy");
    }

    private int sessions(String token, String query) {
        return t.api.get("/v1/sessions" + query, token).body().path("sessions").size();
    }

    private JsonNode inspector(String token, String era, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                NpmPackages.node(),
                npm.resolve("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js")
                        .toString(),
                "--cli",
                mcp(),
                "--transport",
                "http",
                "--protocol-era",
                era,
                "--header",
                "Authorization: Bearer " + token,
                "--format",
                "json",
                "--quiet"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(npm.toFile());
        // the Inspector keeps its catalog under HOME: one of the test's own
        builder.environment().put("HOME", dir.resolve("home-" + era).toString());
        JsonNode printed = run(builder);
        return printed.has("result") ? printed.path("result") : printed;
    }

    private JsonNode runClient(String token, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(NpmPackages.node(), client.toString(), mcp(), token);
        builder.environment().putAll(env);
        return run(builder);
    }

    private static JsonNode run(ProcessBuilder builder) throws Exception {
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out + "\n" + err).isZero();
        // the Inspector prints one (pretty-printed) JSON object; the script one line after anything the SDK logs
        String printed = out.strip();
        return printed.startsWith("{")
                ? ApiClient.JSON.readTree(printed)
                : ApiClient.JSON.readTree(printed.lines().reduce((a, b) -> b).orElseThrow());
    }

    private String mcp() {
        return "http://127.0.0.1:" + t.server.port() + "/mcp";
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
