package dev.baton.mcp.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.testkit.npm.NpmPackages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An MCP server on the official TypeScript SDK v2 that speaks only revision 2026-07-28 ({@code modern-server.mjs}), on
 * a port of its own; {@link #seen()} is what it received: each request's method, standard headers and {@code _meta}.
 */
public final class ModernServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final int port;
    private final Process process;

    private ModernServer(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    public static ModernServer start(Path logDir) {
        Path installed = NpmPackages.require(Path.of("target", "npm-modern"), List.of(NpmPackages.TYPESCRIPT_SERVER));
        Path script = NpmPackages.copyScript(installed, "/mcp2026/modern-server.mjs");
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder(List.of(NpmPackages.node(), script.toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logDir.resolve("modern-server.log").toFile()));
        builder.environment().put("PORT", Integer.toString(port));
        try {
            ModernServer server = new ModernServer(port, builder.start());
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(server::listening);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** The requests the server received, oldest first. */
    public JsonNode seen() {
        try (HttpClient http = HttpClient.newHttpClient()) {
            String body = http.send(
                            HttpRequest.newBuilder(URI.create(url("/seen"))).build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
