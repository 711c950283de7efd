package dev.baton.mcp.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A pass-through HTTP proxy in front of a real MCP server that remembers the headers of every request, so a test can
 * see exactly what Baton sent the server. Optionally it answers everything with a redirect instead.
 */
public final class RecordingProxy implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP =
            Set.of("connection", "content-length", "host", "transfer-encoding", "upgrade", "keep-alive", "expect");

    /** What one request carried. */
    public record Seen(String method, String path, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }

        public boolean isToolCall() {
            return body.contains("\"tools/call\"");
        }
    }

    private final HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    private RecordingProxy(HttpServer server) {
        this.server = server;
    }

    /** Forwards to {@code target} (scheme, host and port; the path is kept). */
    public static RecordingProxy to(URI target) {
        return start(exchange -> null, target);
    }

    /** Answers every request with a 307 to {@code location}. */
    public static RecordingProxy redirectingTo(String location) {
        return start(exchange -> location, null);
    }

    private static RecordingProxy start(java.util.function.Function<HttpExchange, String> redirect, URI target) {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            RecordingProxy proxy = new RecordingProxy(http);
            http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            http.createContext("/", exchange -> proxy.handle(exchange, redirect.apply(exchange), target));
            http.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange, String redirect, URI target) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        seen.add(new Seen(
                exchange.getRequestMethod(),
                exchange.getRequestURI().toString(),
                Map.copyOf(exchange.getRequestHeaders()),
                new String(body, java.nio.charset.StandardCharsets.UTF_8)));
        if (redirect != null) {
            exchange.getResponseHeaders().add("Location", redirect);
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
            return;
        }
        HttpRequest.Builder forward = HttpRequest.newBuilder(
                        target.resolve(exchange.getRequestURI().toString()))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(java.util.Locale.ROOT)))
                values.forEach(v -> forward.header(name, v));
        });
        HttpResponse<InputStream> response;
        try {
            response = client.send(forward.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.close();
            return;
        } catch (IOException e) {
            exchange.sendResponseHeaders(502, -1);
            exchange.close();
            return;
        }
        response.headers().map().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":"))
                values.forEach(v -> exchange.getResponseHeaders().add(name, v));
        });
        boolean empty = response.statusCode() == 202 || response.statusCode() == 204;
        exchange.sendResponseHeaders(response.statusCode(), empty ? -1 : 0);
        try (InputStream in = response.body();
                OutputStream out = exchange.getResponseBody()) {
            byte[] buffer = new byte[8192];
            int n;
            // copy as it arrives: an SSE response is a stream
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away; nothing to tell anyone
        } finally {
            exchange.close();
        }
    }
}
