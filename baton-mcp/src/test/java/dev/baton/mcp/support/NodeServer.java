package dev.baton.mcp.support;

import static org.awaitility.Awaitility.await;

import dev.baton.testkit.npm.NpmPackages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An MCP reference server from npm running over HTTP (server-everything's {@code streamableHttp} or {@code sse}
 * mode) on a port of its own, which a test can kill and start again on the same port.
 */
public final class NodeServer implements AutoCloseable {
    private final String mode;
    private final int port;
    private final Path log;
    private Process process;

    private NodeServer(String mode, int port, Path log) {
        this.mode = mode;
        this.port = port;
        this.log = log;
    }

    /** server-everything in {@code streamableHttp} or {@code sse} mode, listening when this returns. */
    public static NodeServer everything(String mode, Path logDir) {
        NodeServer server = new NodeServer(mode, freePort(), logDir.resolve("everything-" + mode + ".log"));
        server.start();
        return server;
    }

    public int port() {
        return port;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    public synchronized void start() {
        Path script = NpmPackages.script("@modelcontextprotocol/server-everything", "dist/index.js");
        ProcessBuilder builder = new ProcessBuilder(List.of(NpmPackages.node(), script.toString(), mode))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("PORT", Integer.toString(port));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(this::listening);
    }

    /** Kills the server (SIGKILL: no goodbye to its clients) and waits until the port is free. */
    public synchronized void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !listening());
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) kill();
    }

    private boolean listening() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
