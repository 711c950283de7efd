package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged server as a user starts it: {@code baton serve} with no configuration at all runs on the bundled
 * simulator, generates a secret, prints a token, and a plain conversation shows the task agent's tool calls.
 */
class ServeProcessIT {

    @TempDir
    Path workDir;

    @Test
    void serve_with_no_configuration_runs_the_task_agent_on_the_simulator() throws Exception {
        Path jar = Path.of("target", "baton.jar").toAbsolutePath();
        assertThat(jar).exists();
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-jar",
                        jar.toString(),
                        "serve",
                        "--port",
                        "0",
                        "--host",
                        "127.0.0.1")
                .directory(workDir.toFile())
                .redirectErrorStream(true);
        // a user's machine has none of these set; make sure the test's environment does not leak them in
        Map<String, String> env = pb.environment();
        List.of(
                        "OPENAI_API_KEY",
                        "OPENAI_BASE_URL",
                        "BATON_JWT_SECRET",
                        "BATON_DB_URL",
                        "BATON_PORT",
                        "BATON_MODEL",
                        "BATON_CONFIG")
                .forEach(env::remove);
        Process process = pb.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) lines.add(line);
            } catch (IOException ignored) {
                // the process ended
            }
        });
        try {
            String url = null;
            String token = null;
            boolean simulatorNotice = false;
            while (url == null || token == null) {
                String line = lines.poll(60, TimeUnit.SECONDS);
                assertThat(line).as("server output ended before it was ready").isNotNull();
                Matcher m = Pattern.compile("Baton is running at (http://\\S+)").matcher(line);
                if (m.find()) url = m.group(1);
                if (line.contains("LLM SIMULATOR")) simulatorNotice = true;
                if (line.trim().startsWith("export BATON_TOKEN="))
                    token = line.trim().substring("export BATON_TOKEN=".length());
            }
            assertThat(simulatorNotice).isTrue();

            ApiClient api = new ApiClient(url);
            String session = api.startSession(token, "tasks");
            List<SseEvent> events;
            try (var stream = api.stream(session, token, "add a task to buy groceries tomorrow")) {
                events = stream.all();
            }
            assertThat(events).extracting(SseEvent::event).contains("tool_call", "tool_result", "done");
            SseEvent call = events.stream()
                    .filter(e -> e.event().equals("tool_call"))
                    .findFirst()
                    .orElseThrow();
            assertThat(call.data().path("name").asText()).isEqualTo("add_task");
            assertThat(call.data().path("arguments").path("title").asText()).isEqualTo("buy groceries");
            assertThat(api.get("/v1/tasks", token)
                            .body()
                            .path("tasks")
                            .get(0)
                            .path("title")
                            .asText())
                    .isEqualTo("buy groceries");
            // the embedded default is a SQLite file under the working directory
            assertThat(Files.exists(workDir.resolve("data").resolve("baton.db")))
                    .isTrue();
        } finally {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static final Duration START = Duration.ofSeconds(60);

    @Test
    void serve_binds_this_machine_only_by_default_and_says_so() throws Exception {
        try (BatonProcess serve = BatonProcess.start(workDir, Map.of("BATON_PORT", "0"), "serve")) {
            String port = serve.awaitLine("Listening on 127\\.0\\.0\\.1:(\\d+) \\(this machine only", START);
            assertThat(new ApiClient("http://127.0.0.1:" + port)
                            .get("/healthz", null)
                            .status())
                    .isEqualTo(200);
        }
    }

    @Test
    void the_development_secret_is_kept_owner_only_and_a_token_from_before_a_restart_still_works() throws Exception {
        String token;
        try (BatonProcess first = BatonProcess.start(workDir, Map.of("BATON_PORT", "0"), "serve")) {
            first.awaitLine("development secret created in", START);
            token = first.awaitLine("export BATON_TOKEN=(\\S+)", START);
        }
        Path secret = workDir.resolve("data").resolve("dev-jwt-secret");
        assertThat(Files.getPosixFilePermissions(secret))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

        try (BatonProcess second = BatonProcess.start(workDir, Map.of("BATON_PORT", "0"), "serve")) {
            String url = second.awaitLine("Baton is running at (http://\\S+)", START);
            second.awaitLine("development secret kept in", START);
            assertThat(new ApiClient(url).get("/v1/sessions", token).status()).isEqualTo(200);
        }
    }

    @Test
    void with_a_secret_set_serve_says_how_to_mint_a_token() throws Exception {
        try (BatonProcess serve = BatonProcess.start(
                workDir, Map.of("BATON_PORT", "0", "BATON_JWT_SECRET", TestServer.SECRET), "serve")) {
            serve.awaitLine("Tokens: \\./baton token --user NAME", START);
        }
        assertThat(workDir.resolve("data").resolve("dev-jwt-secret")).doesNotExist();
    }

    @Test
    void a_port_in_use_ends_serve_with_one_line_and_its_own_exit_code() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            BatonProcess.Run run =
                    BatonProcess.run(workDir, Map.of(), "", "serve", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(run.exitCode()).as(run.output()).isEqualTo(6);
            assertThat(run.output()).contains("baton serve: the port is already in use");
            assertThat(run.hasStackTrace()).as(run.output()).isFalse();
        }
    }
}
