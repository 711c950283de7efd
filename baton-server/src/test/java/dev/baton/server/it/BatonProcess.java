package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged {@code baton} command (target/baton.jar) as a process, in a folder and an environment of the test's
 * choosing: a user's machine has none of Baton's variables set unless the test sets them. Its output (stdout and
 * stderr together) is read as it comes, so a test waits for a line rather than for a while.
 */
final class BatonProcess implements AutoCloseable {

    /** Variables that would change what the command does; never inherited from the build's environment. */
    private static final List<String> SCRUBBED = List.of(
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
            "ANTHROPIC_API_KEY",
            "OLLAMA_BASE_URL",
            "AZURE_OPENAI_ENDPOINT",
            "AZURE_OPENAI_API_KEY",
            "BATON_JWT_SECRET",
            "BATON_JWT_JWKS_URL",
            "BATON_DB_URL",
            "BATON_PORT",
            "BATON_HOST",
            "BATON_URL",
            "BATON_TOKEN",
            "BATON_MODEL",
            "BATON_CONFIG",
            "BATON_DATA_DIR",
            "BATON_AGENTS_DIR",
            "BATON_DEFAULT_AGENT",
            "BATON_REDIS_URL");

    /**
     * A process started in the background of a non-interactive shell ({@code ./baton test &} in a script) has SIGINT
     * ignored, its children inherit that, and a JVM never handles a signal it was started with ignored: the Ctrl-C
     * tests would then fail however Baton behaves. GNU env puts the default back before it runs the command (the
     * same process, so {@link #interrupt} still signals Baton itself); where env cannot, the command runs as it is.
     */
    private static final List<String> WITH_DEFAULT_SIGINT = defaultSigintLauncher();

    final Process process;
    /** Everything the process printed so far; guarded by itself. */
    private final StringBuilder output = new StringBuilder();
    /** Where the next wait starts looking in {@link #output}. */
    private int cursor;

    private boolean ended;

    private BatonProcess(Process process) {
        this.process = process;
        Thread.ofVirtual().start(() -> {
            try (InputStreamReader r = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
                char[] buffer = new char[4096];
                for (int n = r.read(buffer); n >= 0; n = r.read(buffer)) {
                    synchronized (output) {
                        output.append(buffer, 0, n);
                        output.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            } finally {
                synchronized (output) {
                    ended = true;
                    output.notifyAll();
                }
            }
        });
    }

    /** Starts {@code baton ARGS} in {@code dir} with only {@code env} of Baton's variables set. */
    static BatonProcess start(Path dir, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(WITH_DEFAULT_SIGINT);
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                Path.of("target", "baton.jar").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        SCRUBBED.forEach(pb.environment()::remove);
        pb.environment().putAll(env);
        return new BatonProcess(pb.start());
    }

    /** Runs {@code baton ARGS} to its end with {@code stdin} as its input. */
    static Run run(Path dir, Map<String, String> env, String stdin, String... args)
            throws IOException, InterruptedException {
        try (BatonProcess p = start(dir, env, args)) {
            p.type(stdin);
            p.closeInput();
            return p.awaitExit(Duration.ofSeconds(60));
        }
    }

    record Run(int exitCode, String output) {
        /** True when the output shows a Java stack trace. */
        boolean hasStackTrace() {
            return output.lines().anyMatch(l -> l.matches("\\s+at [\\w.$]+\\(.*\\)") || l.startsWith("Caused by:"));
        }
    }

    void type(String text) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write(text.getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    void closeInput() throws IOException {
        process.getOutputStream().close();
    }

    /**
     * Waits for a whole line (after what earlier waits consumed) matching {@code regex}; returns its first group, or
     * the line.
     */
    String awaitLine(String regex, Duration timeout) throws InterruptedException {
        Pattern p = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (output) {
            while (true) {
                int end;
                while ((end = output.indexOf("\n", cursor)) >= 0) {
                    String line = output.substring(cursor, end);
                    cursor = end + 1;
                    Matcher m = p.matcher(line);
                    if (m.find()) return m.groupCount() > 0 ? m.group(1) : line;
                }
                waitForMore(deadline, "a line matching " + regex);
            }
        }
    }

    /** Waits until {@code text} is printed, even in a line not finished yet (an answer being streamed). */
    void awaitText(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (output) {
            int at;
            while ((at = output.indexOf(text, cursor)) < 0) waitForMore(deadline, "'" + text + "'");
            cursor = at + text.length();
        }
    }

    private void waitForMore(long deadline, String what) throws InterruptedException {
        long left = deadline - System.nanoTime();
        assertThat(left > 0 && !ended)
                .as("no %s; the output so far:%n%s", what, output)
                .isTrue();
        TimeUnit.NANOSECONDS.timedWait(output, left);
    }

    /** Waits for the process to end and returns its exit code and everything it printed. */
    Run awaitExit(Duration timeout) throws InterruptedException {
        assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
                .as("the process did not end")
                .isTrue();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (output) {
            // the reader has everything once the process closed its output
            while (!ended && deadline - System.nanoTime() > 0)
                TimeUnit.NANOSECONDS.timedWait(output, deadline - System.nanoTime());
            return new Run(process.exitValue(), output.toString());
        }
    }

    /** Sends SIGINT, as Ctrl-C in a terminal does. */
    private static List<String> defaultSigintLauncher() {
        List<String> launcher = List.of("env", "--default-signal=INT");
        try {
            Process probe = new ProcessBuilder(concat(launcher, "true"))
                    .redirectErrorStream(true)
                    .start();
            probe.getInputStream().transferTo(OutputStream.nullOutputStream());
            return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0 ? launcher : List.of();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    private static List<String> concat(List<String> first, String last) {
        List<String> all = new ArrayList<>(first);
        all.add(last);
        return all;
    }

    void interrupt() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start();
        assertThat(kill.waitFor()).isZero();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
