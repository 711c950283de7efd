package dev.baton.testkit.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
                            || !c.path("choices").path(0).path("delta").path("content").asText("").isEmpty())
                    .toList();
        }

        String text() {
            var text = new StringBuilder();
            chunks().forEach(c -> text.append(c.path("choices").path(0).path("delta").path("content").asText("")));
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
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathUnderBase)).timeout(Duration.ofSeconds(20)).GET().build());
    }

    JsonNode postJson(String body) {
        var response = post(body);
        try {
            return ChatBody.JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + response.statusCode() + "): " + response.body(), e);
        }
    }

    Stream stream(String body) {
        try {
            var response = http.send(chatRequest(body), HttpResponse.BodyHandlers.ofInputStream());
            return readSse(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpClient http() {
        return http;
    }

    private static Stream readSse(int status, InputStream body) {
        var data = new ArrayList<String>();
        try (var reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("data: ")) {
                    data.add(line.substring("data: ".length()));
                }
            }
            return new Stream(status, List.copyOf(data), null);
        } catch (IOException e) {
            return new Stream(status, List.copyOf(data), e);
        }
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
