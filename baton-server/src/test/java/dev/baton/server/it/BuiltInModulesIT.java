package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in modules of baton-modules (pii-redaction, topic-guard, webhook), found through the service loader and
 * configured on agents from an agents folder, over real HTTP with the simulator as the model and a real HTTP
 * endpoint as the webhook.
 */
class BuiltInModulesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WEBHOOK_SECRET = "it-webhook-secret-0123456789";
    private static final String CARD = "4111 1111 1111 1111";

    @TempDir
    static Path dir;

    static TestServer t;
    static HttpServer webhook;
    static final List<JsonNode> webhookCalls = new CopyOnWriteArrayList<>();
    static final AtomicInteger badSignatures = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        webhook = startWebhook();
        int deadPort = closedPort();
        String webhookUrl = "http://127.0.0.1:" + webhook.getAddress().getPort() + "/baton";
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays("show my card", Reply.text("Your card is " + CARD + " as requested."))
                .whenUserSays("rewritten by the webhook", Reply.text("I saw the rewritten message."))
                .fallback("Noted.")
                .chunkSize(1) // one word per chunk: the card arrives in four pieces
                .build();
        t = TestServer.startWithAgents(
                dir,
                LlmSimulator.start(script),
                Map.of(
                        "private",
                        """
                        id: private
                        name: Privacy-minded assistant
                        systemPrompt: You help with anything.
                        modules: [pii-redaction]
                        """,
                        "tutor",
                        """
                        id: tutor
                        name: Algebra tutor
                        systemPrompt: You teach algebra.
                        constraints:
                          topics:
                            - name: algebra
                              keywords: [equation, solve, variable]
                          deny: ["\\\\bcheat"]
                        modules: [topic-guard]
                        """,
                        "moderated",
                        """
                        id: moderated
                        name: Moderated assistant
                        systemPrompt: You help with anything.
                        modules:
                          - id: webhook
                            config:
                              url: %s
                              secret: %s
                              timeout: 2s
                        """.formatted(webhookUrl, WEBHOOK_SECRET),
                        "guarded",
                        """
                        id: guarded
                        name: Guarded assistant
                        systemPrompt: You help with anything.
                        modules:
                          - id: webhook
                            config:
                              url: http://127.0.0.1:%d/baton
                              secret: %s
                              timeout: 10s
                            failClosed: true
                            safeResponse: Moderation is down; please try again later.
                        """.formatted(deadPort, WEBHOOK_SECRET),
                        "lenient",
                        """
                        id: lenient
                        name: Lenient assistant
                        systemPrompt: You help with anything.
                        modules:
                          - id: webhook
                            config:
                              url: http://127.0.0.1:%d/baton
                              secret: %s
                              timeout: 10s
                        """.formatted(deadPort, WEBHOOK_SECRET)));
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
        if (webhook != null) webhook.stop(0);
    }

    @Test
    void an_email_in_the_user_message_never_reaches_the_model_and_the_audit_keeps_the_original() throws Exception {
        String token = TestServer.token("alice");
        String session = t.api.startSession(token, "private");
        String message = "Please write to alice.smith@example.com about the trip";

        var r = t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                JSON.createObjectNode().put("content", message).toString());

        assertThat(r.status()).isEqualTo(200);
        RecordedRequest sent = lastRequestWith("about the trip");
        assertThat(sent.lastUserMessage()).isEqualTo("Please write to [EMAIL] about the trip");
        assertThat(sent.rawBody()).doesNotContain("alice.smith");

        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(contents(messages))
                .contains("Please write to [EMAIL] about the trip")
                .doesNotContain(message);

        assertThat(auditOf(session)).anySatisfy(a -> {
            assertThat(a.path("module").asText()).isEqualTo("pii-redaction");
            assertThat(a.path("originalContent").asText()).isEqualTo(message);
            assertThat(a.path("patternsMatched").toString()).isEqualTo("[\"email\"]");
        });
        assertThat(extractions(session))
                .contains("pii-redaction pii_detected {\"location\":\"user_message\",\"types\":[\"email\"],"
                        + "\"counts\":{\"email\":1}}");
    }

    @Test
    void a_card_number_split_across_streamed_chunks_never_reaches_the_client_and_the_stored_answer_is_redacted()
            throws Exception {
        String token = TestServer.token("bob");
        String session = t.api.startSession(token, "private");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "show my card")) {
            assertThat(stream.status).isEqualTo(200);
            events = stream.all();
        }

        List<String> chunks = events.stream()
                .filter(e -> e.type().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .toList();
        StringBuilder seen = new StringBuilder();
        for (String chunk : chunks) {
            seen.append(chunk);
            assertThat(seen.toString()).doesNotContain("4111");
        }
        assertThat(seen.toString()).isEqualTo("Your card is [CARD] as requested.");
        assertThat(events.getLast().type()).isEqualTo("done");
        // the model really sent the card in pieces: one word per chunk
        assertThat(lastRequestWith("show my card").stream()).isTrue();

        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(contents(messages)).contains("Your card is [CARD] as requested.");
        assertThat(messages.toString()).doesNotContain("4111");
        assertThat(auditOf(session)).anySatisfy(a -> {
            assertThat(a.path("module").asText()).isEqualTo("pii-redaction");
            assertThat(a.path("originalContent").asText()).contains(CARD);
            assertThat(a.path("patternsMatched").toString()).isEqualTo("[\"card\"]");
        });
        assertThat(extractions(session))
                .anySatisfy(
                        x -> assertThat(x).contains("\"location\":\"response\"").contains("\"card\":1"));
    }

    @Test
    void a_card_number_in_a_json_answer_is_redacted_too() {
        String token = TestServer.token("bea");
        String session = t.api.startSession(token, "private");

        var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"show my card\"}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("Your card is [CARD] as requested.");
        assertThat(r.raw()).doesNotContain("4111");
    }

    @Test
    void the_topic_guard_blocks_an_off_topic_message_without_calling_the_model() {
        String token = TestServer.token("carol");
        String session = t.api.startSession(token, "tutor");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "What is the best pizza place in Naples tonight?")) {
            events = stream.all();
        }

        assertThat(events).anySatisfy(e -> {
            assertThat(e.type()).isEqualTo("blocked");
            assertThat(e.data().path("response").asText())
                    .isEqualTo("I'm sorry, I can only help with algebra. Could you ask me something about that?");
        });
        assertThat(events).noneMatch(e -> e.type().equals("chunk"));
        assertThat(t.simulator.requests()).noneMatch(r -> r.rawBody().contains("pizza"));
        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(contents(messages)).contains("[blocked]").doesNotContain("pizza");
    }

    @Test
    void the_topic_guard_lets_an_on_topic_message_through_to_the_model() {
        String token = TestServer.token("dave");
        String session = t.api.startSession(token, "tutor");

        var r = t.api.post(
                "/v1/sessions/" + session + "/messages", token, "{\"content\":\"How do I solve 2x + 3 = 7 for x?\"}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("Noted.");
        assertThat(lastRequestWith("solve 2x").lastUserMessage()).isEqualTo("How do I solve 2x + 3 = 7 for x?");
    }

    @Test
    void a_webhook_blocks_a_message_over_http_with_a_valid_signature() {
        String token = TestServer.token("erin");
        String session = t.api.startSession(token, "moderated");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "this is forbidden content")) {
            events = stream.all();
        }

        assertThat(events).anySatisfy(e -> {
            assertThat(e.type()).isEqualTo("blocked");
            assertThat(e.data().path("response").asText()).isEqualTo("The webhook says no.");
        });
        assertThat(t.simulator.requests()).noneMatch(r -> r.rawBody().contains("forbidden content"));
        assertThat(badSignatures).hasValue(0);
        assertThat(webhookCalls).anySatisfy(call -> {
            assertThat(call.path("hook").asText()).isEqualTo("chat:before_ai");
            assertThat(call.path("session").path("id").asText()).isEqualTo(session);
            assertThat(call.path("user").path("id").asText()).isEqualTo("erin");
            assertThat(call.path("conversation").path("currentMessage").asText())
                    .isEqualTo("this is forbidden content");
        });
        assertThat(auditOf(session)).anySatisfy(a -> {
            assertThat(a.path("module").asText()).isEqualTo("webhook");
            assertThat(a.path("reason").asText()).isEqualTo("policy violation");
            assertThat(a.path("originalContent").asText()).isEqualTo("this is forbidden content");
        });
    }

    @Test
    void a_fail_closed_webhook_on_a_dead_port_blocks_the_turn_at_once_with_its_safe_response_and_no_model_call() {
        String token = TestServer.token("grace");
        String session = t.api.startSession(token, "guarded");

        long started = System.nanoTime();
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "is anyone checking this")) {
            events = stream.all();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(events).anySatisfy(e -> {
            assertThat(e.type()).isEqualTo("blocked");
            assertThat(e.data().path("response").asText()).isEqualTo("Moderation is down; please try again later.");
        });
        assertThat(events.getLast().type()).isEqualTo("done");
        assertThat(events.getLast().data().path("stopReason").asText()).isEqualTo("blocked");
        // no model call with this message (the simulator is shared: another test's turn may still call it)
        assertThat(t.simulator.requests()).noneMatch(r -> r.rawBody().contains("is anyone checking this"));
        // a refused connection is not a timeout: far below the module's 10 s limit, even on a busy machine
        assertThat(took).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void a_fail_open_webhook_on_a_dead_port_is_skipped_and_counted() {
        String token = TestServer.token("heidi");
        String session = t.api.startSession(token, "lenient");
        long failures = t.server.runtime().modules().failures().count("webhook", dev.baton.core.hook.Hook.BEFORE_AI);

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "hello without moderation")) {
            events = stream.all();
        }

        assertThat(events).noneMatch(e -> e.type().equals("blocked"));
        assertThat(events.getLast().type()).isEqualTo("done");
        assertThat(lastRequestWith("hello without moderation").lastUserMessage())
                .isEqualTo("hello without moderation");
        assertThat(t.server.runtime().modules().failures().count("webhook", dev.baton.core.hook.Hook.BEFORE_AI))
                .isEqualTo(failures + 1);
        var metrics = t.api.get("/metrics", null);
        assertThat(metrics.raw()).contains("baton_module_failures_total");
    }

    /** A port nothing listens on: bound, then closed, so connecting is refused at once. */
    private static int closedPort() throws IOException {
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void a_webhook_rewrites_the_message_the_model_sees_and_its_extraction_is_stored() throws Exception {
        String token = TestServer.token("frank");
        String session = t.api.startSession(token, "moderated");

        var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"please rewrite me\"}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("I saw the rewritten message.");
        assertThat(lastRequestWith("rewritten by the webhook").lastUserMessage())
                .isEqualTo("rewritten by the webhook");
        assertThat(t.simulator.requests()).noneMatch(req -> req.rawBody().contains("please rewrite me"));
        assertThat(badSignatures).hasValue(0);
        assertThat(auditOf(session))
                .anySatisfy(a -> assertThat(a.path("originalContent").asText()).isEqualTo("please rewrite me"));
        assertThat(extractions(session)).contains("webhook moderation {\"flagged\":false}");
    }

    // --- the webhook endpoint ------------------------------------------------------------------------------

    /** A moderation service as a team would write it: verifies the signature, then decides. */
    private static HttpServer startWebhook() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/baton", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String timestamp = exchange.getRequestHeaders().getFirst("X-Baton-Timestamp");
            String signature = exchange.getRequestHeaders().getFirst("X-Baton-Signature");
            if (timestamp == null || !sign(timestamp, body).equals(signature)) {
                badSignatures.incrementAndGet();
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            JsonNode call = JSON.readTree(body);
            webhookCalls.add(call);
            String message = call.path("conversation").path("currentMessage").asText("");
            String answer = "";
            if (message.contains("forbidden")) {
                answer = """
                        {"action": "block", "reason": "policy violation", "directResponse": "The webhook says no.",
                         "patternsMatched": ["forbidden-word"]}""";
            } else if (message.contains("rewrite me")) {
                answer = """
                        {"action": "continue", "userMessage": "rewritten by the webhook",
                         "extractions": [{"type": "moderation", "data": {"flagged": false}}]}""";
            }
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(out.length == 0 ? 204 : 200, out.length == 0 ? -1 : out.length);
            if (out.length > 0) exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static String sign(String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(WEBHOOK_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // --- helpers -------------------------------------------------------------------------------------------

    private static RecordedRequest lastRequestWith(String text) {
        return t.simulator.requests().stream()
                .filter(r -> r.rawBody().contains(text))
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("the model never received <" + text + ">"));
    }

    private static List<String> contents(JsonNode messages) {
        List<String> out = new ArrayList<>();
        messages.forEach(m -> out.add(m.path("content").asText()));
        return out;
    }

    private static JsonNode auditOf(String session) {
        var r = t.api.get("/v1/admin/sessions/" + session + "/audit", TestServer.token("root", "admin"));
        assertThat(r.status()).isEqualTo(200);
        return r.body().path("auditRecords");
    }

    /** "module type data" of each extraction of the session; extractions may be written just after the turn. */
    private static List<String> extractions(String session) throws SQLException {
        List<String> found = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            found.clear();
            try (Connection c = DriverManager.getConnection(t.databaseUrl);
                    PreparedStatement s = c.prepareStatement(
                            "SELECT module, type, data FROM extractions WHERE session_id = ? ORDER BY created_at")) {
                s.setString(1, session);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getString(1) + " " + rs.getString(2) + " "
                                + JSON.readTree(rs.getString(3)).toString());
                    }
                }
            }
            return !found.isEmpty();
        });
        return found;
    }
}
