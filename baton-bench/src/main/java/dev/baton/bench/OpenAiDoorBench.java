package dev.baton.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-turn cost of the OpenAI-compatible door against Baton's own API, on one server: the same text turn sent as
 * {@code POST /v1/sessions/{id}/messages} ({@link #v1Message}), as {@code POST /v1/chat/completions} naming its
 * session ({@link #chatCompletionNamed}), and as {@code POST /v1/chat/completions} carrying the whole history (20
 * earlier messages) from which the door finds the session by its digest ({@link #chatCompletionHistory}: hashing the
 * request, one indexed read and one upsert of {@code history_keys} more). Each session is cut back to 20 messages at
 * every iteration, so all three run on conversations of the same length.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-DBATON_LOG_LEVEL=WARN", "-Xms512m", "-Xmx512m"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 8, time = 1)
public class OpenAiDoorBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HISTORY = 20;

    private BenchServer server;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private String token;
    private String v1Session;
    private String chatSession;
    private String namedSession;
    private String historySession;
    /** The history as the door's client holds it (answers as the door gave them), with the measured message last. */
    private String historyRequest;

    @Setup(Level.Trial)
    public void start() throws Exception {
        server = BenchServer.start();
        token = BenchServer.token(BenchServer.USER);
        v1Session = server.startSession();
        server.seedHistory(v1Session, HISTORY);
        chatSession = server.startSession();
        server.seedHistory(chatSession, HISTORY);
        namedSession = server.startSession();
        server.seedHistory(namedSession, HISTORY);
        // a conversation of 20 messages built through the door, so Baton recorded its digests
        ArrayNode messages = JSON.createArrayNode();
        for (int i = 0; i < HISTORY / 2; i++) {
            messages.addObject().put("role", "user").put("content", "message " + i);
            HttpResponse<String> r = completion(request(messages), null);
            messages.addObject()
                    .put("role", "assistant")
                    .put(
                            "content",
                            JSON.readTree(r.body())
                                    .at("/choices/0/message/content")
                                    .asText());
            historySession = r.headers().firstValue("X-Conversation-ID").orElseThrow();
        }
        messages.addObject().put("role", "user").put("content", BenchScripts.TEXT_PROMPT);
        historyRequest = request(messages);
        // every kind of turn answers the expected text before it is timed
        check(server.send(v1Session, BenchScripts.TEXT_PROMPT).answer());
        check(v1Chat());
        check(answer(completion(named(), namedSession)));
        HttpResponse<String> viaHistory = completion(historyRequest, null);
        check(answer(viaHistory));
        if (!viaHistory.headers().firstValue("X-Conversation-ID").orElseThrow().equals(historySession))
            throw new IllegalStateException("the history did not find its session");
    }

    @Setup(Level.Iteration)
    public void cutBack() {
        server.resetHistory(v1Session, HISTORY);
        server.resetHistory(chatSession, HISTORY);
        server.resetHistory(namedSession, HISTORY);
        server.resetHistory(historySession, HISTORY);
    }

    @TearDown(Level.Trial)
    public void stop() {
        server.close();
    }

    /** Baton's own API: {@code POST /v1/sessions/{id}/messages}, JSON answer. */
    @Benchmark
    public BenchServer.TurnReply v1Message() {
        return server.send(v1Session, BenchScripts.TEXT_PROMPT);
    }

    /** Baton's one-shot {@code POST /v1/chat} continuing a conversation, JSON answer: the baseline. */
    @Benchmark
    public String v1Chat() throws Exception {
        String body = JSON.createObjectNode()
                .put("conversationId", chatSession)
                .put("message", BenchScripts.TEXT_PROMPT)
                .toString();
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/chat"))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IllegalStateException("turn failed: " + r.statusCode() + " " + r.body());
        return JSON.readTree(r.body()).path("answer").asText();
    }

    /** {@code POST /v1/chat/completions} with {@code X-Conversation-ID}. */
    @Benchmark
    public String chatCompletionNamed() throws Exception {
        return answer(completion(named(), namedSession));
    }

    /** {@code POST /v1/chat/completions} with the whole history, the session found by its digest. */
    @Benchmark
    public String chatCompletionHistory() throws Exception {
        return answer(completion(historyRequest, null));
    }

    private static String named() {
        ArrayNode messages = JSON.createArrayNode();
        messages.addObject().put("role", "user").put("content", BenchScripts.TEXT_PROMPT);
        return request(messages);
    }

    private static String request(ArrayNode messages) {
        ObjectNode body = JSON.createObjectNode().put("model", BenchServer.AGENT);
        body.set("messages", messages);
        return body.toString();
    }

    private HttpResponse<String> completion(String body, String session) throws IOException, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) req.header("X-Conversation-ID", session);
        HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IllegalStateException("turn failed: " + r.statusCode() + " " + r.body());
        return r;
    }

    private static String answer(HttpResponse<String> r) throws IOException {
        JsonNode json = JSON.readTree(r.body());
        return json.at("/choices/0/message/content").asText();
    }

    private static void check(String answer) {
        if (!answer.equals(BenchScripts.TEXT_ANSWER)) throw new IllegalStateException("unexpected answer: " + answer);
    }
}
