package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens that must not get in, and sessions that must not be seen by anyone but their owner. */
class AuthAndOwnershipIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(dir, SimulatorScript.replyingWith("hello"));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private static void assert401(ApiClient.Response r) {
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.body().path("error").path("code").asText()).isEqualTo("unauthorized");
        assertThat(r.body().path("error").path("requestId").asText()).isNotBlank();
    }

    @Test
    void a_request_without_a_token_is_401() {
        assert401(t.api.get("/v1/sessions", null));
    }

    @Test
    void an_expired_token_is_401() {
        String expired = new TokenMinter(JwtSecret.of(TestServer.SECRET))
                .mint(
                        TokenMinter.Claims.user("alice", "student"),
                        Instant.now().minus(Duration.ofHours(3)),
                        Duration.ofHours(1));
        var r = t.api.get("/v1/sessions", expired);
        assert401(r);
        assertThat(r.body().path("error").path("message").asText()).contains("expired");
    }

    @Test
    void a_token_signed_with_another_secret_is_401() {
        String forged = new TokenMinter(JwtSecret.of("another-secret-another-secret-another-secret"))
                .mint(TokenMinter.Claims.user("alice", "admin"), Instant.now(), Duration.ofHours(1));
        assert401(t.api.get("/v1/sessions", forged));
    }

    @Test
    void an_unsigned_alg_none_token_is_401() {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject("alice")
                .expirationTime(Date.from(Instant.now().plusSeconds(3600)))
                .claim("roles", List.of("admin"))
                .build();
        assert401(t.api.get("/v1/sessions", new PlainJWT(claims).serialize()));
    }

    @Test
    void a_token_without_exp_is_401() throws JOSEException {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader(JWSAlgorithm.HS256),
                new JWTClaimsSet.Builder().subject("alice").build());
        jwt.sign(new MACSigner(TestServer.SECRET.getBytes()));
        assert401(t.api.get("/v1/sessions", jwt.serialize()));
    }

    @Test
    void garbage_in_the_authorization_header_is_401() {
        assert401(t.api.get("/v1/sessions", "not.a.jwt"));
    }

    @Test
    void health_needs_no_token() {
        assertThat(t.api.get("/healthz", null).status()).isEqualTo(200);
        var ready = t.api.get("/readyz", null);
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.body().path("checks").path("database").asText()).isEqualTo("up");
    }

    @Test
    void another_users_session_is_404_on_every_session_endpoint() {
        String alice = TestServer.token("alice");
        String mallory = TestServer.token("mallory");
        String session = t.api.startSession(alice, "tasks");
        String base = "/v1/sessions/" + session;

        List<ApiClient.Response> attempts = List.of(
                t.api.get(base, mallory),
                t.api.get(base + "/messages", mallory),
                t.api.post(base + "/messages", mallory, "{\"content\":\"hi\"}"),
                t.api.post(base + "/complete", mallory, "{}"),
                t.api.post(base + "/cancel", mallory, "{}"),
                t.api.delete(base, mallory),
                t.api.post("/v1/chat", mallory, "{\"message\":\"hi\",\"conversationId\":\"" + session + "\"}"));
        assertThat(attempts).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.body().path("error").path("code").asText()).isEqualTo("not_found");
        });
        // and an SSE request is refused the same way, before any stream starts
        try (var s = t.api.stream(session, mallory, "hi")) {
            assertThat(s.status).isEqualTo(404);
        }
        // nothing happened to alice's session
        var own = t.api.get(base, alice);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.body().path("state").asText()).isEqualTo("active");
        assertThat(own.body().path("messageCount").asInt()).isZero();
        // mallory's listing does not include it
        assertThat(t.api.get("/v1/sessions", mallory).body().path("sessions")).isEmpty();
    }

    @Test
    void another_users_task_is_404() {
        String alice = TestServer.token("alice2");
        String mallory = TestServer.token("mallory2");
        var created = t.api.post("/v1/tasks", alice, "{\"title\":\"secret plan\"}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.body().path("task").path("id").asText();
        assertThat(t.api.get("/v1/tasks/" + id, mallory).status()).isEqualTo(404);
        assertThat(t.api.patch("/v1/tasks/" + id, mallory, "{\"title\":\"mine\"}")
                        .status())
                .isEqualTo(404);
        assertThat(t.api.delete("/v1/tasks/" + id, mallory).status()).isEqualTo(404);
        assertThat(t.api.get("/v1/tasks/" + id, alice)
                        .body()
                        .path("task")
                        .path("title")
                        .asText())
                .isEqualTo("secret plan");
    }

    @Test
    void the_request_id_is_echoed_or_generated() {
        var echoed = t.api.post(
                "/v1/sessions",
                TestServer.token("zed"),
                "{\"agentId\":\"tasks\"}".getBytes(),
                java.util.Map.of("X-Request-ID", "req-123"));
        assertThat(echoed.headers().firstValue("X-Request-ID")).contains("req-123");
        var generated = t.api.get("/v1/sessions", TestServer.token("zed"));
        assertThat(generated.headers().firstValue("X-Request-ID"))
                .get()
                .asString()
                .isNotBlank();
    }
}
