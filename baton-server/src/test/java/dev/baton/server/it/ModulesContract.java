package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcAuditStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Modules over real HTTP with the simulator as the model (DESIGN §4): the blocked flow, a modified message, an
 * after_ai replacement, a streaming filter catching a number split across chunks, both failure policies and the
 * admin audit endpoint. The modules are the test's own, registered through META-INF/services.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ModulesContract {
    static final String CARD_ANSWER = "Here is a summary of your account: everything looks fine and up to date."
            + " Your card 4111 1111 1111 1111 is on file, thanks.";

    LlmSimulator simulator;
    TestServer t;
    String databaseUrl;

    /** The JDBC URL of an empty database for this class. */
    protected abstract String createDatabase(Path dir);

    protected abstract void dropDatabase();

    @BeforeAll
    void start(@TempDir Path dir) throws IOException {
        Path agents = Files.createDirectories(dir.resolve("agents"));
        agent(agents, "guarded", """
                modules:
                  - id: it-block-word
                    config: { word: forbidden, response: "I can't discuss that here." }
                  - id: it-redact
                    config: { secret: hunter2 }
                  - id: it-guidance
                    config: { text: "Always answer kindly." }
                """);
        agent(agents, "rewriting", """
                modules:
                  - id: it-replace-answer
                    config: { text: "Replaced answer." }
                """);
        agent(agents, "filtered", "modules: [it-card-filter]");
        agent(agents, "strict", """
                modules:
                  - id: it-crash
                    failClosed: true
                    safeResponse: "Our safety check is unavailable right now."
                """);
        agent(agents, "lenient", "modules: [it-crash]");
        agent(agents, "observed", "modules: [it-session-log]");

        simulator = LlmSimulator.start(SimulatorScript.builder()
                .whenUserMatches("(?s).*card.*", Reply.text(CARD_ANSWER))
                .always(Reply.text("Model answer."))
                .chunkSize(1)
                .build());
        databaseUrl = createDatabase(dir);
        BatonConfig config = new BatonConfig(
                0,
                databaseUrl,
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                null,
                Map.of());
        t = TestServer.start(config, simulator, true, Clock.systemUTC());
    }

    @AfterAll
    void stop() {
        if (t != null) t.close();
        dropDatabase();
    }

    static void agent(Path dir, String id, String modulesYaml) throws IOException {
        Files.writeString(
                dir.resolve(id + ".yaml"),
                "id: " + id + "\nname: " + id + "\nmodel: simulator:default\nsystemPrompt: You help.\n" + modulesYaml);
    }

    @Test
    void a_blocked_message_never_reaches_the_model_and_leaves_an_audit_trail() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "guarded");
        int modelCalls = simulator.requests().size();

        List<SseEvent> events;
        try (var stream = t.api.stream(session, alice, "tell me the forbidden thing")) {
            assertThat(stream.status).isEqualTo(200);
            events = stream.all();
        }

        assertThat(simulator.requests()).as("the model is never called").hasSize(modelCalls);
        assertThat(events).extracting(SseEvent::event).containsExactly("turn.started", "blocked", "done");
        assertThat(events.get(1).data().path("response").asText()).isEqualTo("I can't discuss that here.");
        String answerId = events.get(2).data().path("messageId").asText();

        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", alice).body().path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("user");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("[blocked]");
        assertThat(messages.get(0).path("status").asText()).isEqualTo("blocked");
        assertThat(messages.get(1).path("id").asText()).isEqualTo(answerId);
        assertThat(messages.get(1).path("content").asText()).isEqualTo("I can't discuss that here.");

        JsonNode trail = auditOf(session, TestServer.token("mod-root", "admin"));
        assertThat(trail).singleElement().satisfies(a -> {
            assertThat(a.path("messageId").asText())
                    .isEqualTo(messages.get(0).path("id").asText());
            assertThat(a.path("originalContent").asText()).isEqualTo("tell me the forbidden thing");
            assertThat(a.path("module").asText()).isEqualTo("it-block-word");
            assertThat(a.path("reason").asText()).isEqualTo("forbidden word");
            assertThat(a.path("patternsMatched").get(0).asText()).isEqualTo("word:forbidden");
        });
    }

    @Test
    void a_modified_message_is_what_the_model_gets_and_is_stored_with_the_original_audited() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "guarded");

        ApiClient.Response r = t.api.post(
                "/v1/sessions/" + session + "/messages", alice, "{\"content\":\"my password is hunter2, help\"}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("Model answer.");
        RecordedRequest sent = simulator.requests().getLast();
        assertThat(sent.lastUserMessage()).isEqualTo("my password is [REDACTED], help");
        assertThat(sent.rawBody()).doesNotContain("hunter2");
        String system = sent.messages().getFirst().path("content").asText();
        assertThat(system).contains("## Additional Guidance").contains("Always answer kindly.");

        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", alice).body().path("messages");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("my password is [REDACTED], help");
        JsonNode trail = auditOf(session, TestServer.token("mod-root", "admin"));
        assertThat(trail).singleElement().satisfies(a -> {
            assertThat(a.path("originalContent").asText()).isEqualTo("my password is hunter2, help");
            assertThat(a.path("module").asText()).isEqualTo("it-redact");
            assertThat(a.path("messageId").asText())
                    .isEqualTo(messages.get(0).path("id").asText());
        });
        assertThat(extractions(session))
                .extracting(ExtractionRecord::type, ExtractionRecord::messageId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "secret_detected", messages.get(0).path("id").asText()));
    }

    @Test
    void an_after_ai_module_replaces_the_answer_the_client_sees_and_the_one_stored() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "rewriting");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, alice, "hello")) {
            events = stream.all();
        }

        assertThat(chunks(events)).isEqualTo("Replaced answer.");
        assertThat(events.getLast().event()).isEqualTo("done");
        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", alice).body().path("messages");
        assertThat(messages.get(1).path("content").asText()).isEqualTo("Replaced answer.");
        JsonNode trail = auditOf(session, TestServer.token("mod-root", "admin"));
        assertThat(trail).singleElement().satisfies(a -> {
            assertThat(a.path("originalContent").asText()).isEqualTo("Model answer.");
            assertThat(a.path("messageId").asText())
                    .isEqualTo(messages.get(1).path("id").asText());
        });
    }

    @Test
    void a_number_streamed_over_several_chunks_is_redacted_before_the_client_sees_any_of_it() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "filtered");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, alice, "what about my card?")) {
            events = stream.all();
        }

        List<String> pieces = events.stream()
                .filter(e -> e.event().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .toList();
        String expected = CARD_ANSWER.replace("4111 1111 1111 1111", "[CARD]");
        assertThat(String.join("", pieces)).isEqualTo(expected);
        assertThat(pieces).as("it streamed in pieces").hasSizeGreaterThan(1);
        assertThat(pieces).noneMatch(p -> p.matches("(?s).*\\d.*"));
        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", alice).body().path("messages");
        assertThat(messages.get(1).path("content").asText()).as("stored = seen").isEqualTo(expected);
        JsonNode trail = auditOf(session, TestServer.token("mod-root", "admin"));
        assertThat(trail).singleElement().satisfies(a -> {
            assertThat(a.path("originalContent").asText()).isEqualTo(CARD_ANSWER);
            assertThat(a.path("module").asText()).isEqualTo("it-card-filter");
            assertThat(a.path("patternsMatched").get(0).asText()).isEqualTo("card");
        });
    }

    @Test
    void a_failing_fail_closed_module_blocks_the_turn_without_calling_the_model() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "strict");
        int modelCalls = simulator.requests().size();

        List<SseEvent> events;
        try (var stream = t.api.stream(session, alice, "hello")) {
            events = stream.all();
        }

        assertThat(simulator.requests()).hasSize(modelCalls);
        assertThat(events).extracting(SseEvent::event).containsExactly("turn.started", "blocked", "done");
        assertThat(events.get(1).data().path("response").asText())
                .isEqualTo("Our safety check is unavailable right now.");
        assertThat(auditOf(session, TestServer.token("mod-root", "admin")))
                .singleElement()
                .satisfies(a -> assertThat(a.path("originalContent").asText()).isEqualTo("hello"));
    }

    @Test
    void a_failing_fail_open_module_is_skipped_and_the_model_answers() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "lenient");

        ApiClient.Response r =
                t.api.post("/v1/sessions/" + session + "/messages", alice, "{\"content\":\"hello there\"}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("Model answer.");
        assertThat(simulator.requests().getLast().lastUserMessage()).isEqualTo("hello there");
        assertThat(auditOf(session, TestServer.token("mod-root", "admin"))).isEmpty();
    }

    @Test
    void the_audit_endpoint_is_for_admins_of_the_tenant_only_and_outlives_the_session() {
        String alice = TestServer.token("mod-alice");
        String session = t.api.startSession(alice, "guarded");
        t.api.post("/v1/sessions/" + session + "/messages", alice, "{\"content\":\"forbidden\"}");
        String path = "/v1/admin/sessions/" + session + "/audit";
        String admin = TestServer.token("mod-root", "admin");

        assertThat(t.api.get(path, admin).status()).isEqualTo(200);
        assertThat(t.api.get(path, alice).status())
                .as("the session's own user is no admin")
                .isEqualTo(403);
        assertThat(t.api.get(path, null).status()).isEqualTo(401);
        assertThat(t.api.get("/v1/admin/sessions/no-such-session/audit", admin).status())
                .isEqualTo(404);
        String otherTenantAdmin = LimitsFixture.token("mod-other-root", "other-tenant", "admin", Instant.now());
        assertThat(t.api.get(path, otherTenantAdmin).status()).isEqualTo(404);

        assertThat(t.api.delete("/v1/sessions/" + session, alice).status()).isBetween(200, 204);

        ApiClient.Response after = t.api.get(path, admin);
        assertThat(after.status()).isEqualTo(200);
        assertThat(after.body().path("auditRecords")).hasSize(1);
    }

    private JsonNode auditOf(String session, String adminToken) {
        ApiClient.Response r = t.api.get("/v1/admin/sessions/" + session + "/audit", adminToken);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body().path("auditRecords");
    }

    private List<ExtractionRecord> extractions(String session) {
        try (Database db = Database.open(databaseUrl)) {
            return new JdbcAuditStore(db).sessionExtractions("default", session);
        } catch (RuntimeException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String chunks(List<SseEvent> events) {
        return events.stream()
                .filter(e -> e.event().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .collect(Collectors.joining());
    }

    @Test
    void session_start_and_end_reach_the_modules_hooks() throws java.sql.SQLException {
        String token = TestServer.token("mod-observed");
        String session = t.api.startSession(token, "observed");
        assertThat(t.api.post("/v1/sessions/" + session + "/complete", token, "{}")
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> sessionEvents(session).size() == 2);
        assertThat(sessionEvents(session))
                .containsExactlyInAnyOrder("session:start/mod-observed/null", "session:end/mod-observed/user");
    }

    /** The session_event extractions of a session, as hook/user/endReason. */
    private List<String> sessionEvents(String sessionId) throws java.sql.SQLException {
        List<String> events = new java.util.ArrayList<>();
        try (var c = java.sql.DriverManager.getConnection(databaseUrl);
                var ps = c.prepareStatement(
                        "SELECT data FROM extractions WHERE session_id = ? AND type = 'session_event'")) {
            ps.setString(1, sessionId);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    JsonNode d = ApiClient.JSON.readTree(rs.getString(1));
                    events.add(d.path("hook").asText() + "/" + d.path("userId").asText() + "/"
                            + (d.path("endReason").isNull()
                                    ? "null"
                                    : d.path("endReason").asText()));
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return events;
    }
}
