package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Budgets in USD per user per day and per tenant per month, checked before the model is called. Every model call
 * costs exactly 0.01 USD here: the simulator reports 1000 prompt and 1000 completion tokens, priced 4 and 6 USD per
 * million; a turn reserves 0.02 USD.
 */
class BudgetIT {
    static final BigDecimal USER_DAILY = new BigDecimal("0.05");
    static final BigDecimal MAX_PER_TURN = new BigDecimal("0.02");

    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-06-03T10:00:00Z"));
    static LlmSimulator simulator;
    static TestServer t;

    @BeforeAll
    static void start() {
        SimulatorScript script = SimulatorScript.builder()
                // slow enough that fifty concurrent turns overlap for real
                .rule(Rule.when(
                                new Condition.UserContains("race"),
                                Reply.text("raced").withUsage(1000, 1000))
                        .withPacing(Pacing.INSTANT.withFirstTokenLatency(Duration.ofMillis(300))))
                .always(Reply.text("ok").withUsage(1000, 1000))
                .build();
        simulator = LlmSimulator.start(script);
        t = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("budget.db"), """
                        rateLimits:
                          perUser: { perMinute: 1000, perHour: 10000 }
                        prices:
                          models:
                            "simulator:*": { input: 4, output: 6 }
                        budgets:
                          perUser: { dailyUsd: 0.05 }
                          perTenant: { monthlyUsd: 0.07 }
                          maxCostPerTurnUsd: 0.02
                        """, Map.of()),
                simulator,
                false,
                clock);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
        simulator.close();
    }

    @Test
    void a_user_over_the_daily_budget_gets_429_budget_exceeded_until_the_next_day() {
        String spender = LimitsFixture.token("spender", "t-spend", "student", Instant.now());
        String session = t.api.startSession(spender, "tasks");
        for (int i = 1; i <= 5; i++) {
            assertThat(RateLimitIT.send(t, session, spender, "turn " + i).status())
                    .as("turn %d", i)
                    .isEqualTo(200);
        }
        long modelCalls = simulator.requestCount();

        ApiClient.Response refused = RateLimitIT.send(t, session, spender, "one more");

        assertThat(refused.status()).isEqualTo(429);
        JsonNode error = refused.body().path("error");
        assertThat(error.path("code").asText()).isEqualTo("budget_exceeded");
        assertThat(error.path("message").asText())
                .contains("daily budget of 0.05 USD is used up")
                .contains("2025-06-04T00:00:00Z");
        // until midnight UTC
        assertThat(RateLimitIT.header(refused, "Retry-After")).isEqualTo(Long.toString(14 * 3600));
        assertThat(simulator.requestCount())
                .as("no model call for a refused message")
                .isEqualTo(modelCalls);

        // another user is not affected
        String other = LimitsFixture.token("saver", "t-spend", "student", Instant.now());
        assertThat(RateLimitIT.send(t, t.api.startSession(other, "tasks"), other, "hi")
                        .status())
                .isEqualTo(200);

        clock.advance(Duration.ofHours(14));
        assertThat(RateLimitIT.send(t, session, spender, "a new day").status()).isEqualTo(200);
    }

    @Test
    void a_tenant_over_its_monthly_budget_refuses_all_its_users() {
        String first = LimitsFixture.token("member-1", "t-shared", "student", Instant.now());
        String second = LimitsFixture.token("member-2", "t-shared", "student", Instant.now());
        String s1 = t.api.startSession(first, "tasks");
        String s2 = t.api.startSession(second, "tasks");
        for (int i = 0; i < 3; i++)
            assertThat(RateLimitIT.send(t, s1, first, "a" + i).status()).isEqualTo(200);
        for (int i = 0; i < 4; i++)
            assertThat(RateLimitIT.send(t, s2, second, "b" + i).status()).isEqualTo(200);

        // member 2 has spent 0.04 of a 0.05 daily budget, but the organisation 0.07 of its 0.07 this month
        ApiClient.Response refused = RateLimitIT.send(t, s2, second, "b4");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("budget_exceeded");
        assertThat(refused.body().path("error").path("message").asText())
                .contains("organisation's monthly budget")
                .doesNotContain("spent"); // a member is not told the organisation's spending
    }

    @Test
    void fifty_concurrent_messages_near_the_cap_overshoot_it_by_at_most_one_turns_maximum_cost() throws Exception {
        String racer = LimitsFixture.token("racer", "t-race", "student", Instant.now());
        String session = t.api.startSession(racer, "tasks");
        for (int i = 0; i < 3; i++)
            assertThat(RateLimitIT.send(t, session, racer, "warm up").status()).isEqualTo(200);
        // 0.03 of 0.05 spent: without reservations all fifty would see headroom and run

        int threads = 50;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<ApiClient.Response>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return t.api.post("/v1/chat", racer, "{\"message\":\"race\",\"agentId\":\"tasks\"}");
                }));
            }
            go.countDown();
            int ok = LimitsFixture.admitted(answers);
            assertThat(ok).as("turns admitted").isBetween(1, 2);
        }

        BigDecimal spent = LimitsFixture.spentBy(t, "racer", "t-race");
        assertThat(spent).isLessThanOrEqualTo(USER_DAILY.add(MAX_PER_TURN));
        assertThat(spent).isGreaterThanOrEqualTo(new BigDecimal("0.04"));
    }

    /** The user's cost this month, from the admin usage report (an admin of the same tenant asks). */
}
