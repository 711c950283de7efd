package dev.baton.modules.webhook;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** A real HTTP endpoint on 127.0.0.1 that records what it receives and answers as told. */
final class WebhookReceiver implements AutoCloseable {

    /** One request as received. */
    record Received(String path, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile int status = 200;
    private volatile String answer = "";
    private volatile boolean hang;
    private volatile String redirectTo;

    WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(
                    new Received(exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders()), body));
            try {
                if (hang) {
                    release.await(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (redirectTo != null) {
                exchange.getResponseHeaders().add("Location", url() + redirectTo);
                exchange.sendResponseHeaders(302, -1);
                exchange.close();
                return;
            }
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                exchange.getResponseBody().write(out);
            }
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    WebhookReceiver answering(int newStatus, String json) {
        status = newStatus;
        answer = json;
        return this;
    }

    WebhookReceiver hanging() {
        hang = true;
        return this;
    }

    WebhookReceiver redirectingTo(String path) {
        redirectTo = path;
        return this;
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
