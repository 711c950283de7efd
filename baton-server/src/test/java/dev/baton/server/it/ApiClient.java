package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** A plain HTTP client for the API, as a user's program would call it. */
final class ApiClient {
    static final ObjectMapper JSON = new ObjectMapper();

    record Response(int status, JsonNode body, java.net.http.HttpHeaders headers, String raw) {}

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String base;

    ApiClient(String base) {
        this.base = base;
    }

    Response get(String path, String token) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), token, Map.of());
    }

    Response delete(String path, String token) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE(), token, Map.of());
    }

    Response post(String path, String token, String json) {
        return post(path, token, json.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    Response post(String path, String token, byte[] body, Map<String, String> headers) {
        return send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                token,
                headers);
    }

    Response put(String path, String token, String json) {
        return send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(json)),
                token,
                Map.of());
    }

    Response patch(String path, String token, String json) {
        return send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Content-Type", "application/json")
                        .method("PATCH", HttpRequest.BodyPublishers.ofString(json)),
                token,
                Map.of());
    }

    private Response send(HttpRequest.Builder b, String token, Map<String, String> headers) {
        if (token != null) b.header("Authorization", "Bearer " + token);
        headers.forEach(b::header);
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().isEmpty() ? JSON.nullNode() : parse(r.body());
            return new Response(r.statusCode(), body, r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode parse(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(s);
        }
    }

    /** Starts a session with the agent and returns its id. */
    String startSession(String token, String agentId) {
        Response r = post("/v1/sessions", token, "{\"agentId\":\"" + agentId + "\"}");
        if (r.status() != 201) throw new IllegalStateException("session not created: " + r.status() + " " + r.raw());
        return r.body().path("id").asText();
    }

    /** Sends a message asking for SSE and reads the whole stream. */
    SseStream stream(String sessionId, String token, String content) {
        String json = JSON.createObjectNode().put("content", content).toString();
        return openStream("/v1/sessions/" + sessionId + "/messages", token, json);
    }

    SseStream openStream(String path, String token, String json) {
        return openStream(path, token, json, Map.of());
    }

    SseStream openStream(String path, String token, String json, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        headers.forEach(b::header);
        HttpRequest req = b.build();
        try {
            HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
            return new SseStream(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** GETs an SSE stream (a turn's events) with extra headers such as {@code Last-Event-ID}. */
    SseStream openGet(String path, String token, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream")
                .GET();
        headers.forEach(b::header);
        try {
            HttpResponse<InputStream> r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            return new SseStream(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An open SSE response, read event by event; closing it disconnects like a browser tab closing. */
    static final class SseStream implements AutoCloseable {
        final int status;
        final java.net.http.HttpHeaders headers;
        private final InputStream in;
        private final BufferedReader reader;
        /** How many heartbeat comments were read. */
        int keepalives;

        SseStream(int status, java.net.http.HttpHeaders headers, InputStream in) {
            this.status = status;
            this.headers = headers;
            this.in = in;
            this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }

        /** The next event, or null at the end of the stream. Heartbeat comments are skipped. */
        SseEvent next() {
            long id = -1;
            String event = null;
            StringBuilder data = new StringBuilder();
            try {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.isEmpty()) {
                        if (event != null) return new SseEvent(id, event, JSON.readTree(data.toString()));
                        continue;
                    }
                    if (line.startsWith(":")) {
                        keepalives++;
                        continue;
                    }
                    if (line.startsWith("id: ")) id = Long.parseLong(line.substring(4));
                    else if (line.startsWith("event: ")) event = line.substring(7);
                    else if (line.startsWith("data: ")) data.append(line.substring(6));
                }
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Reads until an event matches, returning everything read including it. */
        List<SseEvent> until(Predicate<SseEvent> stop) {
            List<SseEvent> events = new ArrayList<>();
            SseEvent e;
            while ((e = next()) != null) {
                events.add(e);
                if (stop.test(e)) break;
            }
            return events;
        }

        List<SseEvent> all() {
            return until(e -> false);
        }

        /** The body of a non-200 answer. */
        JsonNode errorBody() {
            try {
                return JSON.readTree(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException ignored) {
                // closing is the point; a failure to close cleanly changes nothing for the test
            }
        }
    }
}
