package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.server.http.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A terminal client: resumes (or starts) a session, streams each answer and shows tool calls as they run. A tool
 * call that waits for approval is asked about (y/n) and the decision sent, which goes on with the turn.
 */
@Command(name = "chat", mixinStandardHelpOptions = true, description = "Chat with an agent in the terminal.")
final class ChatCommand implements Callable<Integer> {

    @Option(
            names = "--url",
            defaultValue = "http://localhost:8080",
            description = "Server URL (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--token", description = "Bearer token (default: $BATON_TOKEN).")
    String token;

    @Option(names = "--agent", defaultValue = "tasks", description = "Agent id (default: ${DEFAULT-VALUE}).")
    String agent;

    @Option(names = "--new", description = "Start a new session instead of resuming the newest active one.")
    boolean fresh;

    private final HttpClient http = HttpClient.newHttpClient();
    /** Whether the next answer text starts a new "baton>" line (after a tool line, or at the start). */
    private boolean atLineStart;

    private final PrintStream out = System.out;
    private BufferedReader in;
    /** The approval_required events of the stream being read, asked about once it ends. */
    private final List<JsonNode> awaiting = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (token == null) token = System.getenv("BATON_TOKEN");
        if (token == null || token.isBlank()) {
            System.err.println("baton chat: no token. Pass --token or export BATON_TOKEN (baton serve prints one).");
            return 2;
        }
        String sessionId = fresh ? null : resume();
        if (sessionId == null) sessionId = start();
        out.println("Session " + sessionId + " with agent '" + agent + "'. Type a message; Ctrl-D to quit.");
        in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (true) {
            out.print("\nyou> ");
            out.flush();
            String line = in.readLine();
            if (line == null) return 0;
            if (line.isBlank()) continue;
            send(sessionId, line);
        }
    }

    private String resume() throws IOException, InterruptedException {
        JsonNode body =
                call(HttpRequest.newBuilder(URI.create(url + "/v1/sessions?state=active&limit=1&agentId=" + agent))
                        .GET());
        JsonNode first = body.path("sessions").path(0);
        return first.isMissingNode() ? null : first.path("id").asText();
    }

    private String start() throws IOException, InterruptedException {
        String json = Json.MAPPER.createObjectNode().put("agentId", agent).toString();
        return call(HttpRequest.newBuilder(URI.create(url + "/v1/sessions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)))
                .path("id")
                .asText();
    }

    private JsonNode call(HttpRequest.Builder req) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(req.header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = Json.MAPPER.readTree(r.body());
        if (r.statusCode() >= 400) {
            throw new IOException("HTTP " + r.statusCode() + ": "
                    + body.path("error").path("message").asText(r.body()));
        }
        return body;
    }

    private void send(String sessionId, String text) throws IOException, InterruptedException {
        String json = Json.MAPPER.createObjectNode().put("content", text).toString();
        stream("/v1/sessions/" + sessionId + "/messages", json);
        // each held call is asked about; the last decision goes on with the turn, which may hold calls again
        while (!awaiting.isEmpty()) {
            List<JsonNode> ask = List.copyOf(awaiting);
            awaiting.clear();
            for (JsonNode call : ask) {
                out.print("Allow " + call.path("name").asText() + " " + call.path("arguments") + "? [y/N] ");
                out.flush();
                String answer = in.readLine();
                boolean yes =
                        answer != null && answer.trim().toLowerCase(Locale.ROOT).startsWith("y");
                String decision = Json.MAPPER
                        .createObjectNode()
                        .put("decision", yes ? "approve" : "deny")
                        .toString();
                stream(
                        "/v1/sessions/" + sessionId + "/approvals/"
                                + call.path("callId").asText(),
                        decision);
            }
        }
    }

    /** POSTs {@code json} asking for SSE and renders the events (a decision that waits for others answers JSON). */
    private void stream(String path, String json) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        HttpResponse<Stream<String>> r = http.send(req, HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() >= 400) {
            String body = String.join("\n", r.body().toList());
            out.println("error: HTTP " + r.statusCode() + " " + body);
            return;
        }
        if (r.statusCode() == 202) {
            r.body().close();
            return;
        }
        atLineStart = true;
        Iterator<String> lines = r.body().iterator();
        while (lines.hasNext()) {
            String line = lines.next();
            if (!line.startsWith("data: ")) continue;
            render(Json.MAPPER.readTree(line.substring(6)));
        }
        out.println();
    }

    private void render(JsonNode e) {
        switch (e.path("type").asText()) {
            case "chunk", "blocked" -> {
                if (atLineStart) out.print("baton> ");
                atLineStart = false;
                out.print(e.path(e.path("type").asText().equals("chunk") ? "content" : "response")
                        .asText());
            }
            case "tool_call" -> toolLine("[tool] " + e.path("name").asText() + " " + e.path("arguments"));
            case "tool_result" ->
                toolLine("["
                        + (e.path("ok").asBoolean()
                                ? "ok"
                                : "failed: " + e.path("error").asText()) + "] "
                        + e.path("name").asText() + " in "
                        + e.path("durationMs").asLong() + " ms");
            case "approval_required" -> {
                awaiting.add(e);
                toolLine("[needs approval] " + e.path("name").asText() + " " + e.path("arguments") + ": "
                        + e.path("reason").asText());
            }
            case "error" -> toolLine("[error] " + e.path("message").asText());
            case "done" ->
                toolLine(("awaiting_approval".equals(e.path("state").asText()) ? "(waiting for your approval; " : "(")
                        + e.path("model").asText() + ", "
                        + e.path("usage").path("inputTokens").asLong() + " in / "
                        + e.path("usage").path("outputTokens").asLong() + " out tokens)");
            default -> {}
        }
        out.flush();
    }

    private void toolLine(String text) {
        if (!atLineStart) out.println();
        out.println("  " + text);
        atLineStart = true;
    }
}
