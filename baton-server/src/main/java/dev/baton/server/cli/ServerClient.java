package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The HTTP calls the {@code baton} commands make to a running server ({@code chat}, and {@code eval --attach}). Failures a user can fix become a {@link CliFailure} that says what to do:
 * a server that cannot be reached, a token it refuses.
 */
final class ServerClient {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;
    private final String token;

    ServerClient(String url, String token) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.token = token;
    }

    String url() {
        return url;
    }

    /**
     * The server a command talks to: {@code --url} as given, else $BATON_URL, else localhost on $BATON_PORT (8080 by
     * default).
     */
    static String urlFrom(String given, Map<String, String> env) {
        if (given != null && !given.isBlank()) return given;
        String fromEnv = env.get("BATON_URL");
        if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.strip();
        String port = env.get("BATON_PORT");
        return "http://localhost:" + (port != null && !port.isBlank() ? port.strip() : "8080");
    }

    /** Posts a JSON body and returns the server's JSON answer; a refusal becomes a one-line {@link CliFailure}. */
    JsonNode post(String path, JsonNode body) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    /** The newest active session with the agent, or null. */
    String newestActiveSession(String agent) {
        JsonNode first = get("/v1/sessions?state=active&limit=1&agentId=" + encode(agent))
                .path("sessions")
                .path(0);
        return first.isMissingNode() ? null : first.path("id").asText();
    }

    /** The caller's newest sessions, newest first. */
    List<JsonNode> sessions(int limit) {
        List<JsonNode> out = new ArrayList<>();
        get("/v1/sessions?limit=" + limit).path("sessions").forEach(out::add);
        return out;
    }

    JsonNode session(String id) {
        return get("/v1/sessions/" + encode(id));
    }

    /** The agents the caller may use. */
    List<String> agents() {
        List<String> out = new ArrayList<>();
        get("/v1/agents").path("agents").forEach(a -> out.add(a.path("id").asText()));
        return out;
    }

    String startSession(String agent) {
        String json = Json.MAPPER.createObjectNode().put("agentId", agent).toString();
        return send(HttpRequest.newBuilder(uri("/v1/sessions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)))
                .path("id")
                .asText();
    }

    /** The session's last {@code n} messages, oldest first. */
    List<JsonNode> lastMessages(String sessionId, int n) {
        List<JsonNode> out = new ArrayList<>();
        get("/v1/sessions/" + encode(sessionId) + "/messages?limit=" + n)
                .path("messages")
                .forEach(out::add);
        out.sort(Comparator.comparingLong(m -> m.path("seq").asLong()));
        return out.size() > n ? out.subList(out.size() - n, out.size()) : out;
    }

    /** Asks the server to stop the session's running turn (its partial answer is kept). */
    void cancel(String sessionId) {
        http.sendAsync(
                authorized(HttpRequest.newBuilder(uri("/v1/sessions/" + encode(sessionId) + "/cancel"))
                                .POST(HttpRequest.BodyPublishers.noBody()))
                        .build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /**
     * Sends a message and hands each streamed event to {@code onEvent} until the answer ends.
     *
     * @return null when the stream ran to its end; the server's error message when it refused the message
     */
    String stream(String sessionId, String text, Consumer<JsonNode> onEvent) {
        String json = Json.MAPPER.createObjectNode().put("content", text).toString();
        return streamFrom("/v1/sessions/" + encode(sessionId) + "/messages", json, onEvent);
    }

    /**
     * Sends the user's decision on a tool call that waits for approval and hands each event of the turn it resumes
     * to {@code onEvent}.
     *
     * @return as {@link #stream}
     */
    String decide(String sessionId, String callId, boolean approve, Consumer<JsonNode> onEvent) {
        String json = Json.MAPPER
                .createObjectNode()
                .put("decision", approve ? "approve" : "deny")
                .toString();
        return streamFrom("/v1/sessions/" + encode(sessionId) + "/approvals/" + encode(callId), json, onEvent);
    }

    private String streamFrom(String path, String json, Consumer<JsonNode> onEvent) {
        HttpRequest req = authorized(HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .header("Accept", "text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(json)))
                .build();
        HttpResponse<Stream<String>> r = call(() -> http.send(req, HttpResponse.BodyHandlers.ofLines()));
        try (Stream<String> lines = r.body()) {
            if (r.statusCode() >= 400) {
                String body = String.join("\n", lines.toList());
                refuseIfUnauthorized(r.statusCode(), body);
                return errorMessage(r.statusCode(), body);
            }
            Iterator<String> it = lines.iterator();
            while (it.hasNext()) {
                String line = it.next();
                if (line.startsWith("data: ")) onEvent.accept(readTree(line.substring(6)));
            }
        } catch (UncheckedIOException | IllegalStateException closed) {
            // the server went away mid-answer
            return "the answer stream ended early (" + closed.getMessage() + ")";
        }
        return null;
    }

    /** A JSON request with any method; a refusal becomes a one-line {@link CliFailure}. */
    JsonNode request(String method, String path, JsonNode body) {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body.toString());
        HttpRequest.Builder req = HttpRequest.newBuilder(uri(path)).method(method, publisher);
        if (body != null) req.header("Content-Type", "application/json");
        return send(req);
    }

    JsonNode get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private JsonNode send(HttpRequest.Builder req) {
        HttpResponse<String> r = call(() -> http.send(authorized(req).build(), HttpResponse.BodyHandlers.ofString()));
        refuseIfUnauthorized(r.statusCode(), r.body());
        if (r.statusCode() >= 400)
            throw new CliFailure(
                    r.statusCode() >= 500 ? ExitCodes.FAILED : ExitCodes.REFUSED,
                    "the server answered " + errorMessage(r.statusCode(), r.body()));
        if (r.body().isEmpty()) return Json.MAPPER.createObjectNode();
        return readTree(r.body());
    }

    private void refuseIfUnauthorized(int status, String body) {
        if (status == 401)
            throw new CliFailure(
                    ExitCodes.UNAUTHORIZED,
                    "the server refused the token (" + errorMessage(status, body) + "): export the BATON_TOKEN that "
                            + "./baton serve printed, or mint one with ./baton token --user NAME");
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder req) {
        return req.header("Authorization", "Bearer " + token);
    }

    interface Call<T> {
        T run() throws IOException, InterruptedException;
    }

    private <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new CliFailure(
                    ExitCodes.UNREACHABLE,
                    "cannot reach the Baton server at " + url + ": start it with ./baton serve, or point BATON_URL "
                            + "(or BATON_PORT) at it",
                    e);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.UNREACHABLE, "lost the connection to " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure(ExitCodes.FAILED, "interrupted");
        }
    }

    private URI uri(String path) {
        try {
            return URI.create(url + path);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCodes.USAGE, "not a URL: " + url + " (e.g. http://localhost:8080)");
        }
    }

    static String errorMessage(int status, String body) {
        String message = body;
        try {
            JsonNode error = Json.MAPPER.readTree(body).path("error");
            if (error.has("message"))
                message = error.path("message").asText() + " ("
                        + error.path("code").asText() + ")";
        } catch (IOException | RuntimeException notJson) {
            // the body as it is
        }
        return "HTTP " + status + ": " + message;
    }

    private static JsonNode readTree(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.FAILED, "the server sent something that is not JSON: " + text);
        }
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
