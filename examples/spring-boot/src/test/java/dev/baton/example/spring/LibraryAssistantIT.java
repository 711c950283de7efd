package dev.baton.example.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The library app started on a random port, its assistant's model the LLM simulator, every request over real HTTP
 * with a signed JWT: a streamed tool turn changes the loans as the signed-in user, a destructive tool waits for the
 * user's approval, a user without the permission is refused, and the service's own method security holds for the
 * tools because they run through its Spring proxy.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LibraryAssistantIT {
    private static final String SECRET = "a-test-secret-of-at-least-32-bytes!!";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SESSIONS = List.of("sessions:read:self", "sessions:write:self");

    private static final LlmSimulator MODEL = LlmSimulator.start(SimulatorScript.builder()
            .whenUserSays("lend me Dune", Reply.toolCall("borrow_book", "{\"bookId\":\"dune\"}"))
            .whenUserSays("lend me Emma", Reply.toolCall("borrow_book", "{\"bookId\":\"emma\"}"))
            .whenToolResult("borrow_book", Reply.text("Done: enjoy your book."))
            .whenUserSays("withdraw Ulysses", Reply.toolCall("withdraw_book", "{\"bookId\":\"ulysses\"}"))
            .whenToolResult("withdraw_book", Reply.text("Ulysses is withdrawn."))
            .build());

    @DynamicPropertySource
    static void baton(DynamicPropertyRegistry properties) throws Exception {
        Path dir = Files.createTempDirectory("library-it");
        properties.add("baton.database.url", () -> "jdbc:sqlite:" + dir.resolve("baton.db"));
        properties.add("baton.openai.base-url", MODEL::baseUrl);
        properties.add("baton.openai.api-key", () -> "test");
        properties.add("library.jwt.secret", () -> SECRET);
    }

    @AfterAll
    static void stopModel() {
        MODEL.close();
    }

    @LocalServerPort
    int port;

    @Autowired
    LoanService loans;

    @Autowired
    MeterRegistry meters;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void a_streamed_tool_turn_lends_the_book_to_the_signed_in_user() throws Exception {
        String alice = token("alice", "riverside", "loans:read", "loans:write");
        String session = startSession(alice);

        HttpResponse<String> streamed =
                post("/assistant/v1/sessions/" + session + "/messages", alice, "{\"content\":\"lend me Dune\"}", true);

        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        List<Event> events = Event.parse(streamed.body());
        assertThat(events)
                .extracting(Event::name)
                .startsWith("turn.started", "tool_call", "tool_result")
                .contains("chunk")
                .endsWith("done");
        assertThat(events.get(2).data().path("ok").asBoolean()).isTrue();
        assertThat(events.getLast().data().path("toolsCalled").toString()).contains("borrow_book");

        // the service saw the signed-in user, from Baton's caller and from Spring Security alike
        assertThat(loans.loansOf(caller("alice", "riverside"))).singleElement().satisfies(loan -> {
            assertThat(loan.title()).isEqualTo("Dune");
            assertThat(loan.borrower()).isEqualTo("alice");
            assertThat(loan.tenant()).isEqualTo("riverside");
            assertThat(loan.recordedBy()).isEqualTo("alice");
        });

        JsonNode history = JSON.readTree(
                get("/assistant/v1/sessions/" + session + "/messages", alice).body());
        assertThat(history.path("messages").findValuesAsText("content"))
                .containsExactly("lend me Dune", "Done: enjoy your book.");
    }

    @Test
    void a_destructive_tool_waits_for_the_users_approval() throws Exception {
        String librarian = token("lee", "riverside", "loans:read", "catalogue:manage");
        String session = startSession(librarian);

        HttpResponse<String> paused = post(
                "/assistant/v1/sessions/" + session + "/messages",
                librarian,
                "{\"content\":\"withdraw Ulysses\"}",
                true);

        List<Event> events = Event.parse(paused.body());
        Event required = events.stream()
                .filter(e -> e.name().equals("approval_required"))
                .findFirst()
                .orElseThrow();
        assertThat(required.data().path("name").asText()).isEqualTo("withdraw_book");
        assertThat(events.getLast().name()).isEqualTo("done");
        assertThat(events.getLast().data().path("state").asText()).isEqualTo("awaiting_approval");
        assertThat(loans.catalogue()).extracting(LoanService.Book::id).contains("ulysses");

        String callId = required.data().path("callId").asText();
        HttpResponse<String> approved = post(
                "/assistant/v1/sessions/" + session + "/approvals/" + callId,
                librarian,
                "{\"decision\":\"approve\"}",
                false);

        assertThat(approved.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(approved.body());
        assertThat(answer.path("state").asText()).isEqualTo("completed");
        assertThat(answer.path("answer").asText()).isEqualTo("Ulysses is withdrawn.");
        assertThat(loans.catalogue()).extracting(LoanService.Book::id).doesNotContain("ulysses");
    }

    @Test
    void a_user_without_the_session_permission_is_refused_with_batons_error_body() throws Exception {
        String reader = JwtTokens.sign(SECRET, "rita", "riverside", List.of("loans:read"));

        HttpResponse<String> refused = post("/assistant/v1/sessions", reader, "{}", false);

        assertThat(refused.statusCode()).isEqualTo(403);
        JsonNode error = JSON.readTree(refused.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("forbidden");
        assertThat(error.path("requestId").asText()).isNotBlank();
    }

    @Test
    void a_request_without_a_token_is_answered_401_like_baton_serve() throws Exception {
        HttpResponse<String> refused = http.send(
                HttpRequest.newBuilder(uri("/assistant/v1/sessions"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(JSON.readTree(refused.body()).path("error").path("code").asText())
                .isEqualTo("unauthorized");
    }

    @Test
    void the_services_method_security_holds_for_its_tools_because_they_run_through_its_proxy() throws Exception {
        assertThat(AopUtils.isAopProxy(loans)).isTrue();
        // bob may use the assistant and read loans, but not borrow: the service's @PreAuthorize refuses the tool
        String bob = token("bob", "riverside", "loans:read");
        String session = startSession(bob);

        HttpResponse<String> streamed =
                post("/assistant/v1/sessions/" + session + "/messages", bob, "{\"content\":\"lend me Emma\"}", true);

        Event result = Event.parse(streamed.body()).stream()
                .filter(e -> e.name().equals("tool_result"))
                .findFirst()
                .orElseThrow();
        assertThat(result.data().path("ok").asBoolean()).isFalse();
        assertThat(result.data().path("error").asText()).contains("may not");
        assertThat(loans.loansOf(caller("bob", "riverside"))).isEmpty();
        assertThat(loans.available()).extracting(LoanService.Book::id).contains("emma");
    }

    @Test
    void the_apps_health_and_meters_include_baton() throws Exception {
        String alice = token("alice", "riverside", "loans:read");
        post("/assistant/v1/sessions/" + startSession(alice) + "/messages", alice, "{\"content\":\"hello\"}", false);

        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(uri("/actuator/health/baton")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        JsonNode baton = JSON.readTree(health.body());
        assertThat(baton.path("status").asText()).isEqualTo("UP");
        assertThat(baton.path("details").path("database").asText()).isEqualTo("up");
        assertThat(baton.path("details").path("providers").path("openai").asText())
                .isEqualTo("closed");
        assertThat(meters.find("baton.turns").tag("agent", "librarian").counters())
                .isNotEmpty();
    }

    private static dev.baton.core.auth.Principal caller(String user, String tenant) {
        return dev.baton.core.auth.Principal.of(tenant, user, java.util.Set.of());
    }

    private static String token(String user, String tenant, String... permissions) throws Exception {
        List<String> all = new ArrayList<>(SESSIONS);
        all.addAll(List.of(permissions));
        return JwtTokens.sign(SECRET, user, tenant, all);
    }

    private String startSession(String token) throws Exception {
        HttpResponse<String> created = post("/assistant/v1/sessions", token, "{\"agentId\":\"librarian\"}", false);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).path("id").asText();
    }

    private HttpResponse<String> post(String path, String token, String body, boolean sse) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (sse) request.header("Accept", "text/event-stream");
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(path))
                        .header("Authorization", "Bearer " + token)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** One Server-Sent Event: its name and its JSON data. */
    record Event(String name, JsonNode data) {
        static List<Event> parse(String stream) throws Exception {
            List<Event> events = new ArrayList<>();
            for (String block : stream.split("\r?\n\r?\n")) {
                String name = null;
                StringBuilder data = new StringBuilder();
                for (String line : block.split("\r?\n")) {
                    if (line.startsWith("event:")) name = line.substring(6).strip();
                    else if (line.startsWith("data:"))
                        data.append(line.substring(5).strip());
                }
                if (name != null) events.add(new Event(name, JSON.readTree(data.toString())));
            }
            return events;
        }
    }

    /** HS256 tokens as the app's identity provider would issue them. */
    static final class JwtTokens {
        static String sign(String secret, String user, String tenant, List<String> permissions) throws Exception {
            JWTClaimsSet claims = new JWTClaimsSet.Builder()
                    .subject(user)
                    .claim("tenant", tenant)
                    .claim("permissions", permissions)
                    .expirationTime(Date.from(Instant.now().plusSeconds(600)))
                    .build();
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
            return jwt.serialize();
        }
    }
}
