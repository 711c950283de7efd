package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
