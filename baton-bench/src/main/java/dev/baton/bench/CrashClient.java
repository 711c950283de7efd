package dev.baton.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

/**
 * A user of {@link CrashDrill}: sends one turn at a time, each with an {@code Idempotency-Key}, as JSON or as an SSE
 * stream, to a random instance. When its connection dies (its instance was killed) it sends the same request again,
 * with the same key, to another instance (or the same one restarted) until it gets an answer, within a bound; a 409
 * (the key still in use while the dead instance's lease lasts) is waited out the same way.
 */
final class CrashClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The longest a client retries one turn: past the dead request's idempotency claim (request timeout + margin). */
    static final Duration GIVE_UP = Duration.ofSeconds(150);

    private final CrashTargets targets;
    private final String token;
    private final String keyPrefix;
    private final CrashKiller killer;
    private final Random random;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    CrashClient(CrashTargets targets, String token, String keyPrefix, CrashKiller killer, Random random) {
        this.targets = targets;
        this.token = token;
        this.keyPrefix = keyPrefix;
        this.killer = killer;
        this.random = random;
    }

    /** A new session with the drill's agent (sent again until one instance answers). */
    String startSession() throws InterruptedException {
        Instant until = Instant.now().plus(GIVE_UP);
        while (Instant.now().isBefore(until)) {
            try {
                HttpResponse<String> r = http.send(
                        request(targets.pick(random) + "/v1/sessions")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"agentId\":\"" + CrashScript.AGENT + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 201)
                    return JSON.readTree(r.body()).path("id").asText();
                if (r.statusCode() < 500)
                    throw new IllegalStateException("session refused: " + r.statusCode() + " " + r.body());
            } catch (IOException e) {
                // the instance died under the request: another one takes it
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no instance started a session within " + GIVE_UP);
    }

    /** Sends {@code turn} in {@code session} until it is answered or {@link #GIVE_UP} has passed. */
    CrashTurnResult send(String session, CrashTurn turn) throws InterruptedException {
        String body = JSON.createObjectNode().put("content", turn.prompt()).toString();
        String key = keyPrefix + turn.id();
        Instant until = Instant.now().plus(GIVE_UP);
        int conflicts = 0;
        Instant broken = null;
        String last = "no request sent";
        int attempt = 0;
        for (; Instant.now().isBefore(until); attempt++) {
            if (attempt > 0) Thread.sleep(200 + random.nextInt(300)); // a client's back-off, not a synchronisation
            HttpRequest.Builder b = request(targets.pick(random) + "/v1/sessions/" + session + "/messages")
                    .header("Idempotency-Key", key)
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (turn.streamed()) b.header("Accept", "text/event-stream").header("Baton-Resumable", "true");
            Answer answer;
            try {
                HttpResponse<InputStream> r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
                answer = read(r);
            } catch (IOException e) {
                answer = new Answer.Broken(e.toString());
            }
            switch (answer) {
                case Answer.Got got -> {
                    long wait = -1;
                    if (broken != null) {
                        Instant kill = killer.lastKillBefore(broken);
                        if (kill != null)
                            wait = Duration.between(kill, Instant.now()).toMillis();
                    }
                    return new CrashTurnResult(
                            turn, session, got.text(), got.messageId(), attempt, conflicts, got.replayed(), wait, null);
                }
                case Answer.Conflict c -> {
                    conflicts++;
                    last = c.why();
                }
                case Answer.Broken br -> {
                    if (broken == null) broken = Instant.now();
                    last = br.why();
                }
                case Answer.Refused refused -> {
                    return new CrashTurnResult(turn, session, null, null, attempt, conflicts, false, -1, refused.why());
                }
            }
        }
        return new CrashTurnResult(
                turn, session, null, null, attempt - 1, conflicts, false, -1, "gave up after " + GIVE_UP + ": " + last);
    }

    /** What one request brought back. */
    private sealed interface Answer {
        record Got(String text, String messageId, boolean replayed) implements Answer {}

        /** A 409: the key still in use, or the session busy; sent again later. */
        record Conflict(String why) implements Answer {}

        /** The connection died, a 5xx, or a turn that failed: sent again. */
        record Broken(String why) implements Answer {}

        /** Anything else: the drill's own mistake; not sent again. */
        record Refused(String why) implements Answer {}
    }

    private static Answer read(HttpResponse<InputStream> r) throws IOException {
        try (InputStream in = r.body()) {
            int status = r.statusCode();
            boolean sse = r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
            if (status == 200 && sse) return readStream(in);
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (status == 200) {
                JsonNode json = JSON.readTree(text);
                return new Answer.Got(
                        json.path("answer").asText(),
                        json.path("messageId").asText(),
                        r.headers().firstValue("Idempotent-Replayed").isPresent());
            }
            if (status == 409) return new Answer.Conflict("409 " + text);
            if (status >= 500) return new Answer.Broken(status + " " + text);
            return new Answer.Refused(status + " " + text);
        }
    }

    /** A turn's stream to its {@code done}; one that ends before it is a broken connection. */
    private static Answer readStream(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder chunks = new StringBuilder();
        String event = null;
        StringBuilder data = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.startsWith("event: ")) event = line.substring(7);
            else if (line.startsWith("data: ")) data.append(line.substring(6));
            else if (line.isEmpty() && event != null) {
                JsonNode json = JSON.readTree(data.toString());
                switch (event) {
                    case "chunk" -> chunks.append(json.path("content").asText());
                    case "done" -> {
                        return new Answer.Got(
                                chunks.toString(), json.path("messageId").asText(), false);
                    }
                    case "error" -> {
                        return new Answer.Broken("error event " + json);
                    }
                    default -> {
                        // turn.started, tool_call, tool_result: nothing the answer holds
                    }
                }
                event = null;
                data.setLength(0);
            }
        }
        return new Answer.Broken("stream ended before done");
    }

    private HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(120))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json");
    }
}
