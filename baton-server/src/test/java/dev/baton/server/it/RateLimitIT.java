package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-user and per-tenant message quotas on one instance (buckets in process), with time moved by the test. */
class RateLimitIT {
    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-06-02T08:00:00Z"));
    static LlmSimulator simulator;
    /** The defaults: 20 per minute and 100 per hour per user. */
    static TestServer defaults;
    /** Small quotas, and a tenant quota, to reach every limit quickly. */
    static TestServer small;

    @BeforeAll
    static void start() {
        simulator = LlmSimulator.start(SimulatorScript.replyingWith("ok"));
        defaults = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("defaults.db"), "{}", Map.of()),
                simulator,
                false,
                clock);
        small = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("small.db"), """
                        rateLimits:
                          perUser: { perMinute: 2, perHour: 3 }
                          perTenant: { perMinute: 4 }
                        """, Map.of()), simulator, false, clock);
    }

    @AfterAll
    static void stop() {
        if (defaults != null) defaults.close();
        if (small != null) small.close();
        simulator.close();
    }

    @Test
    void exactly_twenty_messages_a_minute_pass_and_the_twenty_first_is_429_with_headers() {
        String alice = LimitsFixture.token("rl-alice", null, "student", Instant.now());
        String session = defaults.api.startSession(alice, "tasks");

        ApiClient.Response last = null;
        for (int i = 1; i <= 20; i++) {
            last = send(defaults, session, alice, "hello " + i);
            assertThat(last.status()).as("message %d", i).isEqualTo(200);
        }
        assertThat(header(last, "RateLimit")).isEqualTo("\"per-minute\";r=0;t=60");
        int modelCalls = simulator.requests().size();

        ApiClient.Response refused = send(defaults, session, alice, "one too many");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        assertThat(header(refused, "Retry-After")).isEqualTo("60");
        assertThat(header(refused, "RateLimit-Policy"))
                .isEqualTo("\"per-minute\";q=20;w=60, \"per-hour\";q=100;w=3600");
        assertThat(header(refused, "RateLimit")).isEqualTo("\"per-minute\";r=0;t=60");
        assertThat(simulator.requests())
                .as("a refused message never reaches the model")
                .hasSize(modelCalls);

        // another user is unaffected
        String bob = LimitsFixture.token("rl-bob", null, "student", Instant.now());
        ApiClient.Response bobs = send(defaults, defaults.api.startSession(bob, "tasks"), bob, "hi");
        assertThat(bobs.status()).isEqualTo(200);
        assertThat(header(bobs, "RateLimit")).isEqualTo("\"per-minute\";r=19;t=60");

        // 45 s on, still the same window: refused, and told how long is left
        clock.advance(Duration.ofSeconds(45));
        ApiClient.Response stillRefused = send(defaults, session, alice, "still too many");
        assertThat(stillRefused.status()).isEqualTo(429);
        assertThat(header(stillRefused, "Retry-After")).isEqualTo("15");

        // the window has passed: a new quota, in a window that ends 60 s after the first one did
        clock.advance(Duration.ofSeconds(16));
        ApiClient.Response again = send(defaults, session, alice, "hello again");
        assertThat(again.status()).isEqualTo(200);
        assertThat(header(again, "RateLimit")).isEqualTo("\"per-minute\";r=19;t=59");
    }

    @Test
    void the_hourly_quota_holds_across_minutes_and_reports_itself() {
        String carol = LimitsFixture.token("rl-carol", "tenant-c", "student", Instant.now());
        String session = small.api.startSession(carol, "tasks");

        assertThat(send(small, session, carol, "1").status()).isEqualTo(200);
        assertThat(send(small, session, carol, "2").status()).isEqualTo(200);
        ApiClient.Response minuteUsedUp = send(small, session, carol, "3");
        assertThat(minuteUsedUp.status()).isEqualTo(429);
        assertThat(header(minuteUsedUp, "RateLimit")).startsWith("\"per-minute\";r=0");

        clock.advance(Duration.ofSeconds(61));
        assertThat(send(small, session, carol, "3").status()).isEqualTo(200);
        ApiClient.Response hourUsedUp = send(small, session, carol, "4");

        assertThat(hourUsedUp.status()).isEqualTo(429);
        assertThat(header(hourUsedUp, "RateLimit")).startsWith("\"per-hour\";r=0;t=");
        assertThat(Long.parseLong(header(hourUsedUp, "Retry-After"))).isBetween(3_500L, 3_600L);
    }

    @Test
    void a_tenant_quota_is_shared_by_its_users_and_refusing_it_costs_the_user_nothing() {
        String tenant = "tenant-shared";
        String[] users = {"rl-dave", "rl-erin", "rl-frank"};
        String[] tokens = new String[users.length];
        String[] sessions = new String[users.length];
        for (int i = 0; i < users.length; i++) {
            tokens[i] = LimitsFixture.token(users[i], tenant, "student", Instant.now());
            sessions[i] = small.api.startSession(tokens[i], "tasks");
        }
        assertThat(send(small, sessions[0], tokens[0], "a").status()).isEqualTo(200);
        assertThat(send(small, sessions[0], tokens[0], "b").status()).isEqualTo(200);
        assertThat(send(small, sessions[1], tokens[1], "c").status()).isEqualTo(200);
        assertThat(send(small, sessions[1], tokens[1], "d").status()).isEqualTo(200);

        ApiClient.Response refused = send(small, sessions[2], tokens[2], "e");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(header(refused, "RateLimit")).startsWith("\"tenant-per-minute\";r=0");

        // a user of another tenant is not affected by this tenant's quota
        String henry = LimitsFixture.token("rl-henry", "tenant-other", "student", Instant.now());
        assertThat(send(small, small.api.startSession(henry, "tasks"), henry, "x")
                        .status())
                .isEqualTo(200);

        // frank's units were given back when the tenant refused: his hour still holds all 3 messages
        clock.advance(Duration.ofSeconds(61));
        ApiClient.Response frank = send(small, sessions[2], tokens[2], "f");
        assertThat(frank.status()).isEqualTo(200);
        assertThat(header(frank, "RateLimit-Policy"))
                .isEqualTo("\"per-minute\";q=2;w=60, \"per-hour\";q=3;w=3600, \"tenant-per-minute\";q=4;w=60");
        assertThat(send(small, sessions[2], tokens[2], "g").status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(61));
        assertThat(send(small, sessions[2], tokens[2], "h").status()).isEqualTo(200);
        ApiClient.Response hourUsedUp = send(small, sessions[2], tokens[2], "i");
        assertThat(hourUsedUp.status()).isEqualTo(429);
        assertThat(header(hourUsedUp, "RateLimit")).startsWith("\"per-hour\";r=0");
    }

    @Test
    void one_shot_chat_counts_and_reading_does_not() {
        String grace = LimitsFixture.token("rl-grace", "tenant-g", "student", Instant.now());
        String session = small.api.startSession(grace, "tasks");
        for (int i = 0; i < 5; i++) {
            assertThat(small.api
                            .get("/v1/sessions/" + session + "/messages", grace)
                            .status())
                    .isEqualTo(200);
        }
        assertThat(chat(grace).status()).isEqualTo(200);
        assertThat(chat(grace).status()).isEqualTo(200);

        ApiClient.Response refused = chat(grace);

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        assertThat(header(refused, "Retry-After")).isNotBlank();
    }

    private static ApiClient.Response chat(String token) {
        return small.api.post("/v1/chat", token, "{\"message\":\"hi\",\"agentId\":\"tasks\"}");
    }

    static ApiClient.Response send(TestServer server, String session, String token, String content) {
        return server.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                ApiClient.JSON.createObjectNode().put("content", content).toString());
    }

    static String header(ApiClient.Response r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }
}
