package dev.baton.runtime.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RollbackTriggersTest {
    static final RollbackTriggers DESIGN = RollbackTriggers.DEFAULTS;

    static ArmMetrics arm(long turns, long failed, long p95, long conversations, String cost) {
        return new ArmMetrics(
                "agent", turns, failed, 10, p95 / 2, p95, conversations, new BigDecimal(cost), 0, 0, null);
    }

    @Test
    void the_defaults_are_the_designs() {
        assertThat(DESIGN.maxP95Latency()).hasSeconds(1);
        assertThat(DESIGN.maxCostPerConversation()).isEqualByComparingTo("0.02");
        assertThat(DESIGN.minEvalPassRate()).isEqualTo(0.90);
        assertThat(DESIGN.maxErrorRate()).isEqualTo(0.05);
    }

    @Test
    void a_healthy_arm_breaks_nothing() {
        assertThat(DESIGN.firing(arm(100, 2, 800, 50, "0.50"))).isEmpty();
    }

    @Test
    void each_limit_fires_its_own_trigger() {
        assertThat(DESIGN.firing(arm(100, 0, 1_001, 10, "0.01")))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.trigger()).isEqualTo("p95_latency");
                    assertThat(f.observed()).isEqualTo("1001ms");
                    assertThat(f.limit()).isEqualTo("1000ms");
                });
        assertThat(DESIGN.firing(arm(100, 0, 100, 10, "0.25")))
                .extracting(TriggerFired::trigger)
                .containsExactly("cost_per_conversation");
        assertThat(DESIGN.firing(arm(100, 6, 100, 10, "0.01")))
                .extracting(TriggerFired::trigger)
                .containsExactly("error_rate");
        ArmMetrics lowAccuracy =
                arm(0, 0, 0, 0, "0").withLatestEval(new EvalRun("e", "agent", "edge", 33, 29, "ci", Instant.EPOCH));
        assertThat(DESIGN.firing(lowAccuracy)).extracting(TriggerFired::trigger).containsExactly("eval_pass_rate");
    }

    @Test
    void below_the_minimum_sample_only_the_eval_is_judged() {
        ArmMetrics fewAndBad = arm(DESIGN.minSample() - 1, DESIGN.minSample() - 1, 9_000, 1, "5");
        assertThat(DESIGN.firing(fewAndBad)).isEmpty();
        ArmMetrics enough = arm(DESIGN.minSample(), DESIGN.minSample(), 9_000, 1, "5");
        assertThat(DESIGN.firing(enough))
                .extracting(TriggerFired::trigger)
                .containsExactly("p95_latency", "cost_per_conversation", "error_rate");
    }

    @Test
    void below_the_minimum_of_distinct_users_only_the_eval_is_judged() {
        ArmMetrics oneUser = new ArmMetrics(
                "agent", 100, 100, DESIGN.minUsers() - 1, 4_000, 9_000, 1, new BigDecimal("5"), 0, 0, null);
        assertThat(DESIGN.minUsers()).isEqualTo(5);
        assertThat(DESIGN.firing(oneUser)).isEmpty();
        ArmMetrics enoughUsers =
                new ArmMetrics("agent", 100, 100, DESIGN.minUsers(), 4_000, 9_000, 1, new BigDecimal("5"), 0, 0, null);
        assertThat(DESIGN.firing(enoughUsers))
                .extracting(TriggerFired::trigger)
                .containsExactly("p95_latency", "cost_per_conversation", "error_rate");
    }

    @Test
    void a_cancelled_turn_is_not_an_error() {
        assertThat(ArmMetrics.NOT_ERRORS).contains("ok", "awaiting_approval", "cancelled");
        assertThat(ArmMetrics.NOT_ERRORS).doesNotContain("provider_error", "request_timeout");
    }

    @Test
    void exactly_at_a_limit_is_still_within_it() {
        assertThat(DESIGN.firing(arm(100, 5, 1_000, 1, "0.02"))).isEmpty();
    }
}
