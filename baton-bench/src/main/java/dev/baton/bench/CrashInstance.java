package dev.baton.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One {@code baton serve} of {@link CrashDrill}: the packaged server's command line ({@code BatonCli serve}) in a
 * process of its own, in a folder with its baton.yaml and agents, on a fixed port (a load balancer in front keeps its
 * address across restarts). Killed with SIGKILL and started again under the same {@code instanceId}; every boot's
 * output goes to the same {@code server.log}.
 */
final class CrashInstance implements AutoCloseable {
    private static final String RUNNING = "Baton is running at ";

    final String instanceId;
    final int port;
    private final Path dir;
    private final Map<String, String> env;
    private volatile Process process;
    private volatile boolean up;
    private int boots;

    CrashInstance(String instanceId, int port, Path dir, Map<String, String> env) {
        this.instanceId = instanceId;
        this.port = port;
        this.dir = dir;
        this.env = env;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    boolean up() {
        return up;
    }

    Path log() {
        return dir.resolve("server.log");
    }

    /** Starts a boot and waits until it listens; returns how long that took. */
    synchronized Duration start() throws IOException, InterruptedException {
        Instant began = Instant.now();
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("dev.baton.server.cli.BatonCli");
        command.addAll(List.of("serve", "--port", Integer.toString(port), "--host", "127.0.0.1"));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        List.of("OPENAI_API_KEY", "OPENAI_BASE_URL", "BATON_JWT_SECRET", "BATON_DB_URL", "BATON_PORT", "BATON_MODEL")
                .forEach(pb.environment()::remove);
        pb.environment().putAll(env);
        Process p = pb.start();
        int boot = ++boots;
        CompletableFuture<Void> listening = new CompletableFuture<>();
        Thread.ofVirtual().name("log-" + instanceId + "-" + boot).start(() -> copyOutput(p, boot, listening));
        try {
            listening.get(3, TimeUnit.MINUTES);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            p.destroyForcibly();
            throw new IllegalStateException(instanceId + " did not start (boot " + boot + "); see " + log(), e);
        }
        process = p;
        up = true;
        return Duration.between(began, Instant.now());
    }

    /** The boot's output into the shared log, prefixed so the boots can be told apart. */
    private void copyOutput(Process p, int boot, CompletableFuture<Void> listening) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter w = new PrintWriter(Files.newBufferedWriter(
                        log(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
            w.println("=== " + instanceId + " boot " + boot + " (pid " + p.pid() + ") at " + Instant.now());
            w.flush();
            String line;
            while ((line = r.readLine()) != null) {
                w.println(line);
                w.flush();
                if (line.contains(RUNNING)) listening.complete(null);
            }
            w.println("=== " + instanceId + " boot " + boot + " ended at " + Instant.now());
        } catch (IOException e) {
            // the process was stopped under the reader: its output ends here
            listening.completeExceptionally(e);
        } finally {
            listening.completeExceptionally(new IllegalStateException("output ended"));
        }
    }

    /** kill -9: no shutdown hook, no finally block, no rollback runs in the server. */
    synchronized void kill() throws InterruptedException {
        up = false;
        Process p = process;
        if (p == null) return;
        p.destroyForcibly(); // SIGKILL on Linux
        if (!p.waitFor(60, TimeUnit.SECONDS)) throw new IllegalStateException(instanceId + " survived SIGKILL");
    }

    @Override
    public synchronized void close() throws InterruptedException {
        up = false;
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
        }
    }
}
