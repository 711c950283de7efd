package dev.baton.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image the build wrote to {@code target/baton-image.tar}, read as a runtime reads it and then run: in podman when
 * the machine has it, else isolated by {@code unshare} (see {@link ContainerRunner}). The server in it answers
 * {@code /readyz}, runs as the image's user, keeps its files in the {@code /data} volume, and a streamed tool turn works
 * against the LLM simulator over the OpenAI wire.
 */
class ImageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofMinutes(3);
    private static final String UID = System.getProperty("image.uid", "65532");

    @TempDir
    static Path work;

    static OciImage image;
    static Path tarball;

    @BeforeAll
    static void unpack() throws Exception {
        tarball = Path.of(System.getProperty("image.tar", "target/baton-image.tar"));
        assertThat(tarball)
                .as("the image tarball jib:buildTar writes in package")
                .exists();
        image = OciImage.unpack(tarball, work);
    }

    @Test
    void the_configuration_runs_baton_serve_on_8080_as_a_numeric_non_root_user() {
        JsonNode config = image.config();
        assertThat(config.path("User").asText()).isEqualTo(UID + ":" + UID);
        assertThat(image.entrypoint())
                .startsWith("java")
                .contains(
                        "-XX:MaxRAMPercentage=75",
                        "-XX:+ExitOnOutOfMemoryError",
                        "-XX:+UseG1GC",
                        "-cp",
                        "@/app/jib-classpath-file")
                .endsWith("dev.baton.server.cli.BatonCli");
        assertThat(image.cmd()).containsExactly("serve", "--host", "0.0.0.0");
        assertThat(config.path("ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(config.path("Volumes").has("/data")).isTrue();
        assertThat(image.env("BATON_DATA_DIR")).isEqualTo("/data");
        assertThat(image.env("BATON_DB_URL")).isEqualTo("jdbc:sqlite:/data/baton.db");
        assertThat(image.env("PATH")).startsWith("/opt/java/openjdk/bin:");
        JsonNode labels = config.path("Labels");
        assertThat(labels.path("org.opencontainers.image.version").asText()).isNotBlank();
        assertThat(System.getProperty("image.name"))
                .endsWith(":" + labels.path("org.opencontainers.image.version").asText());
        assertThat(labels.path("org.opencontainers.image.licenses").asText()).isEqualTo("Apache-2.0");
        assertThat(labels.path("org.opencontainers.image.source").asText()).startsWith("https://");
    }

    @Test
    void the_layers_hold_the_server_its_libraries_and_folders_its_user_may_write() throws Exception {
        Path root = image.root();
        assertThat(image.layers()).hasSizeGreaterThanOrEqualTo(3);
        List<String> classpath = List.of(
                Files.readString(root.resolve("app/jib-classpath-file")).trim().split(":"));
        assertThat(classpath).anyMatch(e -> e.equals("/app/libs/baton.jar"));
        assertThat(classpath).anyMatch(e -> e.matches("/app/libs/sqlite-jdbc-.*\\.jar"));
        assertThat(classpath).anyMatch(e -> e.matches("/app/libs/postgresql-.*\\.jar"));
        for (String entry : classpath) {
            if (entry.endsWith(".jar"))
                assertThat(root.resolve(entry.substring(1))).exists();
        }
        for (String folder : List.of("data", "tmp")) {
            assertThat(Files.getPosixFilePermissions(root.resolve(folder)))
                    .as("/" + folder + " is writable by the image's user (Jib makes every file root's)")
                    .contains(PosixFilePermission.OTHERS_WRITE);
        }
        if (System.getProperty("image.base", "scratch").equals("scratch")) {
            Path java = root.resolve("opt/java/openjdk/bin/java");
            assertThat(Files.getPosixFilePermissions(java)).isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
            assertThat(root.resolve("opt/java/openjdk/lib/modules")).exists();
            assertThat(root.resolve("lib64/ld-linux-x86-64.so.2")).exists();
            assertThat(root.resolve("lib/x86_64-linux-gnu/libc.so.6")).exists();
            assertThat(Files.readString(root.resolve("etc/passwd"))).contains(":" + UID + ":" + UID + ":");
        }
    }

    @Test
    void the_container_is_ready_runs_as_its_user_and_streams_a_tool_turn_from_the_simulator() throws Exception {
        ContainerRunner runner = ContainerRunner.choose(image, tarball, System.getProperty("image.name"));
        if (runner instanceof ContainerRunner.Isolated) {
            assumeThat(Commands.available("unshare") && "root".equals(System.getProperty("user.name")))
                    .as("without podman the image runs under unshare, which needs root")
                    .isTrue();
        }
        System.out.println("ImageIT runs the image with " + runner.getClass().getSimpleName());
        try (LlmSimulator simulator = LlmSimulator.start(TaskAgentScript.create());
                RunningContainer container = runner.start(Map.of(
                        "BATON_PORT", "0",
                        "OPENAI_BASE_URL", simulator.baseUrl(),
                        "OPENAI_API_KEY", "sk-image-test"))) {
            String url = container.awaitLine("Baton is running at (http://\\S+)", START);
            // no BATON_JWT_SECRET: the server keeps a development secret in /data, so the volume is writable
            container.awaitLine("development secret created in /data/dev-jwt-secret", START);
            String token = container.awaitLine("export BATON_TOKEN=(\\S+)", START);

            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> ready = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
            JsonNode readiness = JSON.readTree(ready.body());
            assertThat(readiness.path("status").asText()).isEqualTo("ready");
            assertThat(readiness.path("checks").path("database").asText()).isEqualTo("up");

            heapFollowsTheContainer(http, url, runner.memoryLimit());

            List<String> uids = statusField(container.pid(), "Uid");
            assertThat(uids).as("real, effective, saved and file-system user").containsOnly(UID);
            assertThat(statusField(container.pid(), "Gid")).containsOnly(UID);

            String session = JSON.readTree(
                            post(http, url + "/v1/sessions", token, "{\"agentId\":\"tasks\"}", "application/json")
                                    .body())
                    .path("id")
                    .asText();
            assertThat(session).isNotBlank();
            List<String> events = streamTurn(http, url + "/v1/sessions/" + session + "/messages", token);
            assertThat(events).contains("tool_call", "tool_result", "done");
            assertThat(simulator.requestCount())
                    .as("the turn's model calls went over the wire to this test's simulator")
                    .isGreaterThanOrEqualTo(2);
            HttpResponse<String> tasks = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/v1/tasks"))
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(JSON.readTree(tasks.body())
                            .path("tasks")
                            .get(0)
                            .path("title")
                            .asText())
                    .isEqualTo("buy groceries");
        }
    }

    /**
     * The JVM runs G1, and its heap is 75 % of the container's memory limit (1 GiB: 768 MiB), read from the
     * server's own {@code /metrics}: G1's old generation may take the whole heap.
     */
    private static void heapFollowsTheContainer(HttpClient http, String url, String memoryLimit) throws Exception {
        String metrics = http.send(
                        HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher oldGen = Pattern.compile("jvm_memory_max_bytes\\{area=\"heap\",id=\"G1 Old Gen\"} (\\S+)")
                .matcher(metrics);
        assertThat(oldGen.find()).as("G1's old generation in /metrics").isTrue();
        if (memoryLimit == null) return;
        assertThat(memoryLimit).isEqualTo("1g");
        double heapMiB = Double.parseDouble(oldGen.group(1)) / (1024 * 1024);
        assertThat(heapMiB).isBetween(740.0, 780.0);
    }

    private static HttpResponse<String> post(HttpClient http, String url, String token, String json, String accept)
            throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .header("Accept", accept)
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
        return r;
    }

    /** Sends the message with {@code Accept: text/event-stream} and returns the names of the events, in order. */
    private static List<String> streamTurn(HttpClient http, String url, String token) throws Exception {
        String body = JSON.createObjectNode()
                .put("content", "add a task to buy groceries tomorrow")
                .toString();
        HttpResponse<InputStream> r = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .header("Accept", "text/event-stream")
                        .timeout(Duration.ofMinutes(2))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        List<String> events = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("event:"))
                    events.add(line.substring("event:".length()).trim());
            }
        }
        return events;
    }

    /** A line of {@code /proc/PID/status} ({@code Uid:	65532	65532	65532	65532}) as its fields. */
    private static List<String> statusField(long pid, String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return List.of(line.substring(field.length() + 1).trim().split("\\s+"));
            }
        }
        throw new AssertionError("no " + field + " in /proc/" + pid + "/status");
    }
}
