package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The packaged server ({@code target/baton.jar}) running {@code baton serve} in a process of its own. */
final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final String url;

    private ServerProcess(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Starts {@code baton serve --port 0} in {@code workDir} with {@code env} added, and waits until it listens. */
    static ServerProcess start(Path workDir, Map<String, String> env) throws Exception {
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
        Map<String, String> environment = pb.environment();
        List.of("OPENAI_API_KEY", "OPENAI_BASE_URL", "BATON_JWT_SECRET", "BATON_DB_URL", "BATON_PORT", "BATON_MODEL")
                .forEach(environment::remove);
        environment.putAll(env);
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
        Pattern running = Pattern.compile("Baton is running at (http://\\S+)");
        while (true) {
            String line = lines.poll(120, TimeUnit.SECONDS);
            if (line == null) {
                process.destroyForcibly();
                throw new AssertionError("the server did not start (output ended or stalled)");
            }
            Matcher m = running.matcher(line);
            if (m.find()) return new ServerProcess(process, m.group(1));
        }
    }

    String url() {
        return url;
    }

    /** kill -9: the JVM gets no chance to run anything (no shutdown hooks, no finally blocks, no rollbacks). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly();
        }
    }
}
