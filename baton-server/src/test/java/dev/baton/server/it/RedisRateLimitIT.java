package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.RedisTestServer;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances whose buckets live in the Redis at 127.0.0.1:6379 (skipped when it is not running, except under
 * CI=true): a user's quota is one quota, whichever instance the messages reach.
 */
class RedisRateLimitIT {
    static final String REDIS_URL = "redis://127.0.0.1:6379";

    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-06-02T09:00:00Z"));
    static LlmSimulator simulator;
    static TestServer first;
    static TestServer second;

    @BeforeAll
    static void start() {
        RedisTestServer.require();
        simulator = LlmSimulator.start(SimulatorScript.replyingWith("ok"));
        // a fresh key prefix per run, so earlier runs' buckets (still in Redis until they expire) do not count
        String yaml = "rateLimits:\n  perUser: { perMinute: 20, perHour: 100 }\n  redisKeyPrefix: \"baton-it:"
                + UUID.randomUUID() + ":\"\n";
        first = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + dir.resolve("first.db"), yaml, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                clock);
        second = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + dir.resolve("second.db"), yaml + "  redisUrl: " + REDIS_URL + "\n", Map.of()),
                simulator,
                false,
                clock);
    }

    @AfterAll
    static void stop() {
        if (first != null) first.close();
        if (second != null) second.close();
        if (simulator != null) simulator.close();
    }

    @Test
    void two_instances_share_one_quota_per_user() {
        String alice = LimitsFixture.token("redis-alice", null, "student", Instant.now());
        String onFirst = first.api.startSession(alice, "tasks");
        String onSecond = second.api.startSession(alice, "tasks");

        for (int i = 1; i <= 20; i++) {
            TestServer server = i % 2 == 0 ? second : first;
            String session = server == first ? onFirst : onSecond;
            assertThat(RateLimitIT.send(server, session, alice, "m" + i).status())
                    .as("message %d", i)
                    .isEqualTo(200);
        }

        ApiClient.Response refusedByFirst = RateLimitIT.send(first, onFirst, alice, "21st");
        ApiClient.Response refusedBySecond = RateLimitIT.send(second, onSecond, alice, "22nd");
        assertThat(refusedByFirst.status()).isEqualTo(429);
        assertThat(refusedBySecond.status()).isEqualTo(429);
        assertThat(RateLimitIT.header(refusedBySecond, "RateLimit")).isEqualTo("\"per-minute\";r=0;t=60");
        assertThat(RateLimitIT.header(refusedBySecond, "Retry-After")).isEqualTo("60");

        // another user, on either instance, has a quota of their own
        String bob = LimitsFixture.token("redis-bob", null, "student", Instant.now());
        assertThat(RateLimitIT.send(second, second.api.startSession(bob, "tasks"), bob, "hi")
                        .status())
                .isEqualTo(200);

        // both instances read the same (moved) clock: the window passes for both
        clock.advance(Duration.ofSeconds(61));
        assertThat(RateLimitIT.send(second, onSecond, alice, "next window").status())
                .isEqualTo(200);
        assertThat(RateLimitIT.header(RateLimitIT.send(first, onFirst, alice, "and again"), "RateLimit"))
                .isEqualTo("\"per-minute\";r=18;t=59");
    }
}
