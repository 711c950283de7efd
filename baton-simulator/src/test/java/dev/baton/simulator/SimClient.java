package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A plain JDK HttpClient talking to the simulator, with an SSE reader that keeps what came before a failure. */
final class SimClient implements AutoCloseable {

    /** What a streaming call delivered: every {@code data:} payload in order and how the stream ended. */
    record Stream(int status, List<String> data, IOException failure) {
        boolean done() {
            return !data.isEmpty() && data.getLast().equals("[DONE]");
        }

        /** The payloads that are JSON chunks (not [DONE], not malformed). */
        List<JsonNode> chunks() {
            var chunks = new ArrayList<JsonNode>();
            for (var payload : data) {
                try {
                    if (!payload.equals("[DONE]")) {
                        chunks.add(ChatBody.JSON.readTree(payload));
                    }
                } catch (IOException e) {
                    // malformed chunks are asserted on through data()
                }
            }
            return chunks;
        }

        /** Chunks whose delta carries text or a tool-call piece. */
        List<JsonNode> contentChunks() {
            return chunks().stream()
                    .filter(c -> c.path("choices").path(0).path("delta").has("tool_calls")
                            || !c.path("choices")
                                    .path(0)
                                    .path("delta")
                                    .path("content")
                                    .asText("")
                                    .isEmpty())
                    .toList();
        }

        String text() {
            var text = new StringBuilder();
            chunks().forEach(c -> text.append(
                    c.path("choices").path(0).path("delta").path("content").asText("")));
            return text.toString();
        }
    }

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String baseUrl;

    SimClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    HttpRequest chatRequest(String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions"))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer test-key")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    HttpResponse<String> post(String body) {
        return send(chatRequest(body));
    }

    HttpResponse<String> get(String pathUnderBase) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathUnderBase))
                .timeout(Duration.ofSeconds(20))
                .GET()
                .build());
    }

    JsonNode postJson(String body) {
        var response = post(body);
        try {
            return ChatBody.JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + response.statusCode() + "): " + response.body(), e);
        }
    }

    /**
     * Streams a chat request and collects its SSE payloads. Lines go through a line subscriber, which hands over
     * every line received before reporting a cut-off connection (an InputStream body may drop them).
     */
    Stream stream(String body) {
        var collector = new SseCollector();
        int status;
        try {
            status = http.send(chatRequest(body), HttpResponse.BodyHandlers.fromLineSubscriber(collector))
                    .statusCode();
        } catch (IOException e) {
            status = -1; // cut off before send() could return the response
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        try {
            collector.finished.get(20, TimeUnit.SECONDS);
            return new Stream(status, List.copyOf(collector.data), null);
        } catch (ExecutionException e) {
            return new Stream(
                    status,
                    List.copyOf(collector.data),
                    e.getCause() instanceof IOException io ? io : new IOException(e.getCause()));
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("the stream did not end", e);
        }
    }

    private static final class SseCollector implements Flow.Subscriber<String> {
        final List<String> data = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> finished = new CompletableFuture<>();

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.startsWith("data: ")) {
                data.add(line.substring("data: ".length()));
            }
        }

        @Override
        public void onError(Throwable failure) {
            finished.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            finished.complete(null);
        }
    }

    HttpClient http() {
        return http;
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        http.shutdownNow();
    }
}
