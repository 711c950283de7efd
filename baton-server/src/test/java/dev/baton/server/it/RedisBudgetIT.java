package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.RedisTestServer;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Budgets shared by two instances over one PostgreSQL schema, their reservations in the Redis at 127.0.0.1:6379
 * under a fresh key prefix per test (skipped without Redis or PostgreSQL, except under CI=true). Every model call
 * costs 0.01 USD: the simulator reports 1000 prompt and 1000 completion tokens, priced 4 and 6 USD per million.
 */
class RedisBudgetIT {
    static final String REDIS_URL = "redis://127.0.0.1:6379";
    static final BigDecimal USER_DAILY = new BigDecimal("0.05");
    static final BigDecimal MAX_PER_TURN = new BigDecimal("0.01");
    static final String STORY = "once upon a time ".repeat(1000);

    static Postgres pg;
    static LlmSimulator simulator;

    final SettableClock clock = new SettableClock(Instant.parse("2025-06-04T10:00:00Z"));
    TestServer first;
    TestServer second;

    @BeforeAll
    static void start() {
        RedisTestServer.require();
        pg = Postgres.freshSchema();
        SimulatorScript script = SimulatorScript.builder()
                // slow enough that forty concurrent turns overlap for real
                .rule(Rule.when(
                                new Condition.UserContains("race"),
                                Reply.text("raced").withUsage(1000, 1000))
                        .withPacing(Pacing.INSTANT.withFirstTokenLatency(Duration.ofMillis(300))))
                // one word per chunk, 40 words a second: a turn that runs until the test cancels it
                .rule(Rule.when(new Condition.UserContains("story"), Reply.text(STORY))
                        .withPacing(new Pacing(Duration.ZERO, 40, 1)))
                .always(Reply.text("ok").withUsage(1000, 1000))
                .build();
        simulator = LlmSimulator.start(script);
    }

    @AfterEach
    void stopServers() {
        if (first != null) first.close();
        if (second != null) second.close();
    }

    @AfterAll
    static void stop() {
        if (simulator != null) simulator.close();
        if (pg != null) pg.close();
    }

    @Test
    void forty_concurrent_chats_across_two_instances_overshoot_the_cap_by_at_most_one_turns_maximum_cost()
            throws Exception {
        // a turn reserves exactly what it costs: with reservations per instance each instance would admit two
        // more turns (0.07 spent); shared, both together admit two (0.05)
        startBoth("  perUser: { dailyUsd: 0.05 }\n  perTenant: { monthlyUsd: 10 }\n  maxCostPerTurnUsd: 0.01\n");
        String racer = LimitsFixture.token("racer", "t-race", "student", Instant.now());
        for (int i = 0; i < 3; i++)
            assertThat(chat(i % 2 == 0 ? first : second, racer, "warm up").status())
                    .isEqualTo(200);
        // 0.03 of 0.05 spent

        int requests = 40;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<ApiClient.Response>> answers = new ArrayList<>();
        int ok = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(requests)) {
            for (int i = 0; i < requests; i++) {
                TestServer server = i % 2 == 0 ? first : second;
                answers.add(pool.submit(() -> {
                    go.await();
                    return chat(server, racer, "race");
                }));
            }
            go.countDown();
            ok = LimitsFixture.admitted(answers);
        }

        assertThat(ok).as("turns admitted by both instances together").isBetween(1, 2);
        BigDecimal spent = LimitsFixture.spentBy(first, "racer", "t-race");
        assertThat(spent).isLessThanOrEqualTo(USER_DAILY.add(MAX_PER_TURN));
        assertThat(spent).isGreaterThanOrEqualTo(new BigDecimal("0.04"));
    }

    @Test
    void a_reservation_whose_instance_never_releases_it_expires_after_the_request_timeout_plus_the_margin() {
        // a turn reserves the whole budget: while one is held nobody else of the user gets in
        startBoth("  perUser: { dailyUsd: 0.05 }\n  maxCostPerTurnUsd: 0.05\n  reservationMargin: 60s\n");
        String user = LimitsFixture.token("crasher", "t-crash", "student", Instant.now());
        String session = first.api.startSession(user, "tasks");
        try (var stream = first.api.stream(session, user, "tell me a story")) {
            stream.until(e -> e.event().equals("chunk"));

            ApiClient.Response refused = chat(second, user, "hello");
            assertThat(refused.status()).as(refused.raw()).isEqualTo(429);
            assertThat(refused.body().path("error").path("message").asText())
                    .contains("daily budget of 0.05 USD is used up (0.05 USD spent or in progress)");

            // from here the first instance stands for one that died: its turn never ends as far as the budget
            // knows. The reservation lives for the turn's request timeout (45 s) plus the margin (60 s) and a second
            clock.advance(Duration.ofSeconds(105));
            assertThat(chat(second, user, "hello").status()).isEqualTo(429);
            clock.advance(Duration.ofSeconds(1));
            assertThat(chat(second, user, "hello").status()).isEqualTo(200);

            // the late release of the expired reservation changes nothing
            first.api.post("/v1/sessions/" + session + "/cancel", user, "{}");
            assertThat(stream.all().getLast().data().path("code").asText()).isEqualTo("cancelled");
        }
        assertThat(chat(first, user, "hello again").status()).isEqualTo(200);
    }

    @Test
    void a_turn_releases_its_reservation_on_success_model_failure_cancel_and_a_refused_start() {
        // a turn reserves the whole budget, so each probe on the other instance gets in only if the turn before
        // released its reservation
        startBoth("  perUser: { dailyUsd: 0.05 }\n  maxCostPerTurnUsd: 0.05\n");
        String user = LimitsFixture.token("finisher", "t-paths", "student", Instant.now());

        assertThat(chat(first, user, "hello").status()).isEqualTo(200);
        assertThat(chat(second, user, "probe after success").status()).isEqualTo(200);

        simulator.enqueueFault(Fault.http500());
        ApiClient.Response failed = chat(first, user, "hello");
        assertThat(failed.status()).as(failed.raw()).isEqualTo(502);
        assertThat(chat(second, user, "probe after model failure").status()).isEqualTo(200);

        String session = second.api.startSession(user, "tasks");
        try (var stream = second.api.stream(session, user, "tell me a story")) {
            stream.until(e -> e.event().equals("chunk"));
            second.api.post("/v1/sessions/" + session + "/cancel", user, "{}");
            assertThat(stream.all().getLast().data().path("code").asText()).isEqualTo("cancelled");
        }
        assertThat(chat(first, user, "probe after cancel").status()).isEqualTo(200);

        // reserved, then the conversation could not be started (no such agent)
        ApiClient.Response unknown = first.api.post("/v1/chat", user, "{\"message\":\"hi\",\"agentId\":\"nobody\"}");
        assertThat(unknown.status()).as(unknown.raw()).isBetween(400, 499).isNotEqualTo(429);
        assertThat(chat(second, user, "probe after a refused start").status()).isEqualTo(200);
    }

    /** Two instances over the class's schema whose reservations and buckets live under a fresh prefix. */
    private void startBoth(String budgets) {
        String prefix = "baton-it:" + UUID.randomUUID() + ":";
        String rates = "rateLimits:\n  perUser: { perMinute: 1000, perHour: 10000 }\n  redisKeyPrefix: \"" + prefix
                + "rl:\"\n";
        String rest = "prices:\n  models:\n    \"simulator:*\": { input: 4, output: 6 }\n"
                + "budgets:\n  redisKeyPrefix: \"" + prefix + "budget:\"\n" + budgets;
        // one instance finds Redis in the environment, the other in baton.yaml
        first = TestServer.start(
                LimitsFixture.config(pg.url(), rates + rest, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                clock);
        second = TestServer.start(
                LimitsFixture.config(pg.url(), rates + "  redisUrl: " + REDIS_URL + "\n" + rest, Map.of()),
                simulator,
                false,
                clock);
    }

    private static ApiClient.Response chat(TestServer server, String token, String message) {
        return server.api.post(
                "/v1/chat",
                token,
                ApiClient.JSON
                        .createObjectNode()
                        .put("message", message)
                        .put("agentId", "tasks")
                        .toString());
    }

    /** The user's cost this month, from the admin usage report (an admin of the same tenant asks). */
}
