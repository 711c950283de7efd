package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Budgets on the OpenAI-compatible door as everywhere: every turn costs 0.01 USD, the daily budget is 0.05 USD, so the
 * sixth chat completion of the day is refused before any model call, in OpenAI's shape.
 */
class OpenAiBudgetIT {
    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-06-03T10:00:00Z"));
    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("budget.db"), """
                        rateLimits:
                          perUser: { perMinute: 1000, perHour: 10000 }
                        prices:
                          models:
                            "simulator:*": { input: 4, output: 6 }
                        budgets:
                          perUser: { dailyUsd: 0.05 }
                        """, Map.of()),
                LlmSimulator.start(SimulatorScript.builder()
                        .always(Reply.text("ok").withUsage(1000, 1000))
                        .build()),
                true,
                clock);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    @Test
    void a_chat_completion_over_the_daily_budget_is_429_insufficient_quota_with_retry_after() {
        String token = LimitsFixture.token("ob-spender", null, "student", Instant.now());
        String body = "{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        for (int i = 1; i <= 5; i++) {
            assertThat(t.api.post("/v1/chat/completions", token, body).status())
                    .as("turn %d", i)
                    .isEqualTo(200);
        }
        long modelCalls = t.simulator.requestCount();

        var refused = t.api.post("/v1/chat/completions", token, body);

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().at("/error/type").asText()).isEqualTo("insufficient_quota");
        assertThat(refused.body().at("/error/code").asText()).isEqualTo("budget_exceeded");
        assertThat(refused.headers().firstValue("Retry-After")).contains(Long.toString(14 * 3600));
        assertThat(t.simulator.requestCount())
                .as("no model call for a refused turn")
                .isEqualTo(modelCalls);
    }
}
