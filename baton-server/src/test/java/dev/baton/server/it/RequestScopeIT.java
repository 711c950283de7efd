package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a request is scoped to: idempotency keys and rate-limit buckets belong to a tenant and a user together (the
 * same subject in two tenants is two users), and a key is bound to its target, never replayed somewhere else.
 */
class RequestScopeIT {
    @TempDir
    static Path dir;

    static LlmSimulator simulator;
    static TestServer open;
    static TestServer limited;

    @BeforeAll
    static void start() {
        simulator = LlmSimulator.start(TaskAgentScript.create());
        open = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("open.db"), "rateLimits: {enabled: false}", Map.of()),
                simulator,
                false,
                Clock.systemUTC());
        limited = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("limited.db"), """
                        rateLimits:
                          perUser: { perMinute: 1, perHour: 1 }
                          perTenant: { perMinute: 100 }
                        """, Map.of()),
                simulator,
                false,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (open != null) open.close();
        if (limited != null) limited.close();
        simulator.close();
    }

    private static ApiClient.Response send(TestServer t, String token, String session, String key, String content) {
        return t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                ("{\"content\":\"" + content + "\"}").getBytes(),
                Map.of("Idempotency-Key", key));
    }

    @Test
    void the_same_key_and_body_sent_to_another_session_is_422_and_never_replays_the_first_answer() {
        String token = LimitsFixture.token("kim", "acme", "student", Instant.now());
        String first = open.api.startSession(token, "tasks");
        String second = open.api.startSession(token, "tasks");

        ApiClient.Response ran = send(open, token, first, "k-target", "list my tasks");
        ApiClient.Response elsewhere = send(open, token, second, "k-target", "list my tasks");

        assertThat(ran.status()).isEqualTo(200);
        assertThat(elsewhere.status()).isEqualTo(422);
        assertThat(elsewhere.body().path("error").path("code").asText()).isEqualTo("idempotency_key_reused");
        assertThat(elsewhere.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(open.api
                        .get("/v1/sessions/" + second + "/messages", token)
                        .body()
                        .path("messages"))
                .as("nothing ran in the second session")
                .isEmpty();
    }

    @Test
    void the_same_subject_in_two_tenants_has_its_own_idempotency_keys() {
        String inAcme = LimitsFixture.token("sam", "acme", "student", Instant.now());
        String inGlobex = LimitsFixture.token("sam", "globex", "student", Instant.now());
        String acmeSession = open.api.startSession(inAcme, "tasks");
        String globexSession = open.api.startSession(inGlobex, "tasks");

        ApiClient.Response acme = send(open, inAcme, acmeSession, "k-tenant", "list my tasks");
        ApiClient.Response globex = send(open, inGlobex, globexSession, "k-tenant", "list my tasks");

        assertThat(acme.status()).isEqualTo(200);
        assertThat(globex.status()).isEqualTo(200);
        assertThat(globex.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(globex.body().path("messageId").asText())
                .isNotEqualTo(acme.body().path("messageId").asText());
    }

    @Test
    void the_same_subject_in_two_tenants_has_its_own_rate_limit() {
        String inAcme = LimitsFixture.token("ria", "acme", "student", Instant.now());
        String inGlobex = LimitsFixture.token("ria", "globex", "student", Instant.now());
        String acmeSession = limited.api.startSession(inAcme, "tasks");
        String globexSession = limited.api.startSession(inGlobex, "tasks");

        assertThat(send(limited, inAcme, acmeSession, "r-1", "list my tasks").status())
                .isEqualTo(200);
        ApiClient.Response refused = send(limited, inAcme, acmeSession, "r-2", "list my tasks");
        ApiClient.Response otherTenant = send(limited, inGlobex, globexSession, "r-3", "list my tasks");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        assertThat(otherTenant.status()).isEqualTo(200);
    }
}
