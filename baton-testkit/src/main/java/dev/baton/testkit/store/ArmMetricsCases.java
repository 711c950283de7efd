package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.id.Ids;
import dev.baton.runtime.experiment.ArmMetrics;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentDefinition;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.RollbackTriggers;
import dev.baton.runtime.experiment.SessionArm;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The {@link ExperimentStoreContract}'s cases for each arm's metrics over a window and the rollbacks judged from them:
 * turns, latency percentiles by nearest rank, conversations with their cost and tool calls, the latest eval run; a
 * breaking arm rolled back once, only on turns after the last change, and never on one user's turns alone.
 */
abstract class ArmMetricsCases extends ExperimentChangeCases {
    @Test
    void metrics_give_each_arm_its_turns_latency_percentiles_cost_tool_errors_and_latest_eval() {
        SettableClock clock = new SettableClock(T0);
        Experiment e = experiment("metrics-" + suffix(), "tutor-c", 50, 50, RollbackTriggers.DEFAULTS);
        Experiments experiments = experiments(clock);
        experiments.create(ADMIN, e.id(), ExperimentDefinition.write(e));
        // treatment: 20 turns of 10, 20, ..., 200 ms, two of them failed, in one conversation costing 0.05
        SessionArm treated = session(e, "treatment", "ann", T0);
        for (int i = 1; i <= 20; i++)
            store().recordTurn(treated, Ids.newId(), i <= 2 ? "provider_error" : "ok", i * 10L, T0.plusSeconds(i));
        usage(treated, "0.03", List.of(ToolCallState.SUCCEEDED, ToolCallState.FAILED, ToolCallState.TIMED_OUT));
        usage(treated, "0.02", List.of(ToolCallState.SUCCEEDED));
        // control: two conversations of one turn each, 0.01 in all
        SessionArm c1 = session(e, "control", "bob", T0);
        SessionArm c2 = session(e, "control", "cid", T0);
        store().recordTurn(c1, Ids.newId(), "ok", 100, T0.plusSeconds(1));
        store().recordTurn(c2, Ids.newId(), "awaiting_approval", 300, T0.plusSeconds(2));
        usage(c1, "0.004", List.of());
        usage(c2, "0.006", List.of());
        experiments.recordEvalRun(ADMIN, e.id(), "treatment", "edge-cases", 33, 30);
        clock.advance(Duration.ofMinutes(1));
        experiments.recordEvalRun(ADMIN, e.id(), "treatment", "edge-cases", 33, 32);

        List<ArmMetrics> metrics = store().metrics(e, T0.minusSeconds(60));

        assertThat(metrics).extracting(ArmMetrics::arm).containsExactly("control", "treatment");
        ArmMetrics control = metrics.get(0);
        assertThat(control.turns()).isEqualTo(2);
        assertThat(control.failedTurns()).isZero();
        assertThat(control.p50LatencyMs()).isEqualTo(100);
        assertThat(control.p95LatencyMs()).isEqualTo(300);
        assertThat(control.conversations()).isEqualTo(2);
        assertThat(control.costPerConversation()).isEqualByComparingTo("0.005");
        assertThat(control.latestEval()).isNull();
        ArmMetrics treatment = metrics.get(1);
        assertThat(treatment.turns()).isEqualTo(20);
        assertThat(treatment.errorRate()).isEqualTo(0.1);
        assertThat(treatment.p50LatencyMs()).isEqualTo(100);
        assertThat(treatment.p95LatencyMs()).isEqualTo(190);
        assertThat(treatment.conversations()).isEqualTo(1);
        assertThat(treatment.costPerConversation()).isEqualByComparingTo("0.05");
        assertThat(treatment.toolCalls()).isEqualTo(4);
        assertThat(treatment.failedToolCalls()).isEqualTo(2);
        assertThat(treatment.users()).isEqualTo(1);
        assertThat(control.users()).isEqualTo(2);
        assertThat(treatment.latestEval().passed()).isEqualTo(32);

        // a window that starts after the turns holds none of them
        assertThat(store().metrics(e, T0.plusSeconds(3600)))
                .allSatisfy(m -> assertThat(m.turns()).isZero());
    }

    @Test
    void a_breaking_arm_is_rolled_back_once_and_a_moved_clock_takes_old_turns_out_of_the_window() {
        SettableClock clock = new SettableClock(T0);
        RollbackTriggers triggers = new RollbackTriggers(
                Duration.ofMinutes(10), 5, Duration.ofSeconds(1), new BigDecimal("0.02"), 0.9, 0.05);
        Experiment e = experiment("rollback-" + suffix(), "tutor-d", 50, 50, triggers);
        Experiments experiments = experiments(clock);
        experiments.create(ADMIN, e.id(), ExperimentDefinition.write(e));
        SessionArm treated = session(e, "treatment", "ann", T0);
        // slow turns, but old ones: by the time the job runs they are outside the 10 minute window
        for (int i = 0; i < 5; i++) store().recordTurn(treated, Ids.newId(), "ok", 5_000, T0.plusSeconds(i));
        clock.advance(Duration.ofMinutes(11));
        assertThat(rollbacksOf(experiments, e)).isEmpty();
        // four slow turns now: under the minimum sample of five, nothing is judged
        for (int i = 0; i < 4; i++) store().recordTurn(treated, Ids.newId(), "ok", 5_000, clock.instant());
        assertThat(rollbacksOf(experiments, e)).isEmpty();
        store().recordTurn(treated, Ids.newId(), "ok", 5_000, clock.instant());

        List<Experiments.Rollback> rollbacks = rollbacksOf(experiments, e);

        assertThat(rollbacks).singleElement().satisfies(r -> {
            assertThat(r.arm()).isEqualTo("treatment");
            assertThat(r.fired()).extracting(f -> f.trigger()).containsExactly("p95_latency");
        });
        assertThat(store().experiment(e.id()).orElseThrow().weights())
                .containsExactly(Map.entry("control", 50), Map.entry("treatment", 0));
        // judged again: the arm takes no sessions any more, nothing more happens
        assertThat(rollbacksOf(experiments, e)).isEmpty();
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .extracting(OperatorAuditRecord::action, OperatorAuditRecord::actor)
                .containsExactly(Tuple.tuple("rolled_back", "system"), Tuple.tuple("created", "ops"));

        // an operator raises the arm again: the slow turns before the change are not judged a second time
        clock.advance(Duration.ofSeconds(1));
        experiments.setWeights(ADMIN, e.id(), Map.of("treatment", 50), "fixed");
        assertThat(store().changedAt(e.id())).contains(clock.instant());
        assertThat(rollbacksOf(experiments, e)).isEmpty();
        // new slow turns after the change are
        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 5; i++) store().recordTurn(treated, Ids.newId(), "ok", 5_000, clock.instant());
        assertThat(rollbacksOf(experiments, e))
                .singleElement()
                .extracting(Experiments.Rollback::arm)
                .isEqualTo("treatment");
    }

    @Test
    void one_user_cancelling_their_own_turns_rolls_nothing_back_and_a_rollback_is_audited_with_its_evidence() {
        SettableClock clock = new SettableClock(T0);
        RollbackTriggers triggers = new RollbackTriggers(
                Duration.ofMinutes(10), 5, Duration.ofSeconds(1), new BigDecimal("0.02"), 0.9, 0.05, 3);
        Experiment e = experiment("one-user-" + suffix(), "tutor-i", 50, 50, triggers);
        Experiments experiments = experiments(clock);
        experiments.create(ADMIN, e.id(), ExperimentDefinition.write(e));
        // 21 turns one treated user cancelled: not errors
        SessionArm mallory = session(e, "treatment", "mallory", T0);
        for (int i = 0; i < 21; i++) store().recordTurn(mallory, Ids.newId(), "cancelled", 50, T0.plusSeconds(i));
        assertThat(store().metrics(e, T0.minusSeconds(1)))
                .filteredOn(m -> m.arm().equals("treatment"))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.turns()).isEqualTo(21);
                    assertThat(m.failedTurns()).isZero();
                    assertThat(m.users()).isEqualTo(1);
                });
        assertThat(rollbacksOf(experiments, e)).isEmpty();
        // failing turns of that one user: still one user, below the minimum of three
        for (int i = 0; i < 21; i++)
            store().recordTurn(mallory, Ids.newId(), "provider_error", 50, T0.plusSeconds(30 + i));
        assertThat(rollbacksOf(experiments, e)).isEmpty();
        assertThat(store().experiment(e.id()).orElseThrow().weights()).containsEntry("treatment", 50);

        // two more users whose turns fail too: now the arm is judged, rolled back, and the audit says why
        store().recordTurn(session(e, "treatment", "ann", T0), Ids.newId(), "provider_error", 50, T0.plusSeconds(60));
        store().recordTurn(session(e, "treatment", "bob", T0), Ids.newId(), "provider_error", 50, T0.plusSeconds(61));
        clock.advance(Duration.ofSeconds(62));

        assertThat(rollbacksOf(experiments, e))
                .singleElement()
                .satisfies(
                        r -> assertThat(r.fired()).extracting(f -> f.trigger()).containsExactly("error_rate"));
        OperatorAuditRecord rolledBack =
                store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10).getFirst();
        assertThat(rolledBack.action()).isEqualTo("rolled_back");
        com.fasterxml.jackson.databind.JsonNode evidence;
        try {
            evidence = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(rolledBack.detail())
                    .path("evidence")
                    .path("treatment");
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            throw new AssertionError(ex);
        }
        assertThat(evidence.path("turns").asLong()).isEqualTo(44);
        assertThat(evidence.path("failedTurns").asLong()).isEqualTo(23);
        assertThat(evidence.path("users").asLong()).isEqualTo(3);
        assertThat(evidence.path("since").asText()).isNotBlank();
    }
}
