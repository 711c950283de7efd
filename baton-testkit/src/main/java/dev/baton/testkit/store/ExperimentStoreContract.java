package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.id.Ids;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.experiment.Arm;
import dev.baton.runtime.experiment.ArmMetrics;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentDefinition;
import dev.baton.runtime.experiment.ExperimentListener;
import dev.baton.runtime.experiment.ExperimentStore;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.RollbackTriggers;
import dev.baton.runtime.experiment.Routing;
import dev.baton.runtime.experiment.SessionArm;
import dev.baton.runtime.experiment.UserFallback;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.flag.FlagStore;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link ExperimentStore} must do, driven directly and through the runtime's {@link Experiments} with a
 * clock the tests move: definitions changed by compare-and-set on their version and audited with the change, each
 * arm's metrics over a window (turns, latency percentiles by nearest rank, conversations with their cost and tool
 * calls from the {@link ConversationStore} the sessions live in, the latest eval run), rollbacks judged only after
 * the last change, and a user's recent turns for the fallback. Run by baton-store-jdbc against SQLite and PostgreSQL
 * and by baton-testkit against {@code ExperimentStore.inMemory}.
 *
 * <p>Subclasses give the stores under test, shared by all tests of the class: each test uses its own experiment ids,
 * base agent and users.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ExperimentStoreContract {
    protected static final Instant T0 = Instant.parse("2025-05-01T09:00:00Z");
    protected static final Principal ADMIN = Principal.of("acme", "ops", Set.of(Experiments.ADMIN, FeatureFlags.ADMIN));
    /** Base agents: one per test, since an agent has one experiment over it. */
    static final List<String> BASES =
            List.of("tutor-a", "tutor-b", "tutor-c", "tutor-d", "tutor-e", "tutor-f", "tutor-g", "tutor-h", "tutor-i");

    static final AgentRegistry AGENTS = AgentRegistry.of(BASES.stream()
            .flatMap(b -> Stream.of(
                    AgentDefinition.of(b, "Tutor", "be kind", List.of()),
                    AgentDefinition.of(b + "-v2", "Tutor v2", "be brief", List.of())))
            .toList());

    /** The experiment store under test. */
    protected abstract ExperimentStore store();

    /**
     * The conversation store the experiments' sessions live in: an arm's conversations, cost and tool calls are
     * read from the sessions, usage rows and tool calls written here.
     */
    protected abstract ConversationStore conversations();

    @Test
    void a_definition_reads_back_as_created_and_an_id_is_taken_once() {
        Experiment e = experiment("roundtrip-" + suffix(), "tutor-a", 90, 10, RollbackTriggers.DEFAULTS);
        assertThat(store().create(e, audit(e, "created"))).isTrue();
        assertThat(store().create(e, audit(e, "created"))).isFalse();

        assertThat(store().experiment(e.id())).contains(e);
        assertThat(store().experiments()).contains(e);
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .singleElement()
                .extracting(OperatorAuditRecord::action)
                .isEqualTo("created");
    }

    @Test
    void of_two_changes_made_from_the_same_version_only_one_is_applied_and_audited() {
        Experiment e = experiment("cas-" + suffix(), "tutor-b", 90, 10, RollbackTriggers.DEFAULTS);
        store().create(e, audit(e, "created"));

        boolean first = store().replace(
                        e.withWeights(Map.of("control", 50, "treatment", 50)),
                        e.version(),
                        audit(e, "weights_changed"));
        boolean second = store().replace(e.withWeights(Map.of("treatment", 0)), e.version(), audit(e, "rolled_back"));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(store().experiment(e.id()).orElseThrow().weights())
                .containsExactly(Map.entry("control", 50), Map.entry("treatment", 50));
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .extracting(OperatorAuditRecord::action)
                .containsExactly("weights_changed", "created");
    }

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

    @Test
    void a_user_whose_last_turns_all_failed_goes_to_the_fallback_until_the_window_moves_past_them() {
        SettableClock clock = new SettableClock(T0);
        Experiment base = experiment("fallback-" + suffix(), "tutor-e", 0, 100, RollbackTriggers.DEFAULTS);
        Experiment e = new Experiment(
                base.id(),
                base.baseAgentId(),
                base.controlArm(),
                base.arms(),
                null,
                base.triggers(),
                new UserFallback("tutor-e", 3),
                1);
        Experiments experiments = experiments(clock);
        experiments.create(ADMIN, e.id(), ExperimentDefinition.write(e));
        Principal dana = Principal.of("acme", "dana-" + suffix(), Set.of());
        AgentDefinition tutor = AGENTS.find("tutor-e").orElseThrow();
        assertThat(experiments.route(dana, tutor).arm()).isEqualTo("treatment");
        SessionArm treated = new SessionArm(Ids.newId(), e.id(), "treatment", "acme", dana.userId(), T0);
        store().recordSession(treated);
        store().recordTurn(treated, Ids.newId(), "ok", 10, T0);
        store().recordTurn(treated, Ids.newId(), "provider_error", 10, T0.plusSeconds(1));
        store().recordTurn(treated, Ids.newId(), "provider_error", 10, T0.plusSeconds(2));
        assertThat(experiments.route(dana, tutor).arm()).isEqualTo("treatment");
        store().recordTurn(treated, Ids.newId(), "request_timeout", 10, T0.plusSeconds(3));

        Routing routed = experiments.route(dana, tutor);

        assertThat(routed.arm()).isEqualTo(Routing.FALLBACK_ARM);
        assertThat(routed.agent().id()).isEqualTo("tutor-e");
        clock.advance(RollbackTriggers.DEFAULTS.window().plusMinutes(1));
        assertThat(experiments.route(dana, tutor).arm()).isEqualTo("treatment");
    }

    @Test
    void of_many_changes_made_at_once_from_the_same_version_exactly_one_is_applied() throws Exception {
        Experiment e = experiment("race-" + suffix(), "tutor-f", 90, 10, RollbackTriggers.DEFAULTS);
        store().create(e, audit(e, "created"));
        CountDownLatch go = new CountDownLatch(1);
        List<Boolean> applied;
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<Boolean>> changes = IntStream.range(0, 8)
                    .mapToObj(i -> CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    go.await();
                                } catch (InterruptedException ex) {
                                    Thread.currentThread().interrupt();
                                }
                                OperatorAuditRecord change = new OperatorAuditRecord(
                                        Ids.newId(),
                                        OperatorAuditRecord.experiment(e.id()),
                                        "weights_changed",
                                        "ops-" + i,
                                        "{}",
                                        T0.plusSeconds(1 + i));
                                return store().replace(e.withWeights(Map.of("treatment", i)), e.version(), change);
                            },
                            threads))
                    .toList();
            go.countDown();
            applied = new ArrayList<>();
            for (CompletableFuture<Boolean> f : changes) applied.add(f.get());
        }

        assertThat(applied).containsOnlyOnce(true);
        int winner = applied.indexOf(true);
        Experiment stored = store().experiment(e.id()).orElseThrow();
        assertThat(stored.version()).isEqualTo(e.version() + 1);
        assertThat(stored.weights()).containsEntry("treatment", winner);
        assertThat(store().changedAt(e.id())).contains(T0.plusSeconds(1 + winner));
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .extracting(OperatorAuditRecord::actor)
                .containsExactly("ops-" + winner, "ops");
        // the loser's version is gone: a change from it is refused too
        assertThat(store().replace(e.withWeights(Map.of("treatment", 1)), e.version(), audit(e, "weights_changed")))
                .isFalse();
    }

    @Test
    void a_session_keeps_the_arm_it_was_routed_to_and_a_turn_recorded_twice_counts_once() {
        Experiment e = experiment("sessions-" + suffix(), "tutor-g", 50, 50, RollbackTriggers.DEFAULTS);
        store().create(e, audit(e, "created"));
        SessionArm s = new SessionArm(Ids.newId(), e.id(), "treatment", "acme", "fay-" + suffix(), T0);
        store().recordSession(s);
        String turn = Ids.newId();

        store().recordTurn(s, turn, "ok", 40, T0.plusSeconds(1));
        store().recordTurn(s, turn, "ok", 40, T0.plusSeconds(1));

        assertThat(store().sessionArm(s.sessionId())).contains(s);
        assertThat(store().sessionArm(Ids.newId())).isEmpty();
        assertThat(store().metrics(e, T0))
                .extracting(ArmMetrics::arm, ArmMetrics::turns, ArmMetrics::conversations)
                .containsExactly(Tuple.tuple("control", 0L, 0L), Tuple.tuple("treatment", 1L, 1L));
    }

    @Test
    void a_users_recent_statuses_are_newest_first_within_the_window_and_leave_out_the_fallbacks() {
        Experiment e = experiment("recent-" + suffix(), "tutor-h", 50, 50, RollbackTriggers.DEFAULTS);
        store().create(e, audit(e, "created"));
        String user = "gus-" + suffix();
        SessionArm treated = new SessionArm(Ids.newId(), e.id(), "treatment", "acme", user, T0);
        SessionArm fallback = new SessionArm(Ids.newId(), e.id(), Routing.FALLBACK_ARM, "acme", user, T0);
        SessionArm someoneElse = new SessionArm(Ids.newId(), e.id(), "treatment", "acme", "hal-" + suffix(), T0);
        SessionArm otherTenant = new SessionArm(Ids.newId(), e.id(), "treatment", "other", user, T0);
        List.of(treated, fallback, someoneElse, otherTenant).forEach(store()::recordSession);
        store().recordTurn(treated, Ids.newId(), "ok", 10, T0.plusSeconds(1));
        store().recordTurn(treated, Ids.newId(), "provider_error", 10, T0.plusSeconds(2));
        store().recordTurn(fallback, Ids.newId(), "ok", 10, T0.plusSeconds(3));
        store().recordTurn(someoneElse, Ids.newId(), "ok", 10, T0.plusSeconds(4));
        store().recordTurn(otherTenant, Ids.newId(), "ok", 10, T0.plusSeconds(5));
        store().recordTurn(treated, Ids.newId(), "request_timeout", 10, T0.plusSeconds(6));

        assertThat(store().recentTurnStatuses(e.id(), "acme", user, T0, 10))
                .containsExactly("request_timeout", "provider_error", "ok");
        assertThat(store().recentTurnStatuses(e.id(), "acme", user, T0, 2))
                .containsExactly("request_timeout", "provider_error");
        assertThat(store().recentTurnStatuses(e.id(), "acme", user, T0.plusSeconds(2), 10))
                .containsExactly("request_timeout", "provider_error");
        assertThat(store().recentTurnStatuses("no-such-experiment", "acme", user, T0, 10))
                .isEmpty();
    }

    /** The rollbacks a run of the triggers made to {@code e}: the other tests' experiments are judged too. */
    private static List<Experiments.Rollback> rollbacksOf(Experiments experiments, Experiment e) {
        return experiments.evaluateTriggers().stream()
                .filter(r -> r.experimentId().equals(e.id()))
                .toList();
    }

    protected Experiments experiments(SettableClock clock) {
        FeatureFlags flags = new FeatureFlags(FlagSettings.NONE, FlagStore.inMemory(), clock, Duration.ZERO);
        return new Experiments(store(), AGENTS, flags, ExperimentListener.NONE, clock, Duration.ZERO);
    }

    protected static Experiment experiment(
            String id, String base, int control, int treatment, RollbackTriggers triggers) {
        return new Experiment(
                id,
                base,
                "control",
                List.of(new Arm("control", base, control), new Arm("treatment", base + "-v2", treatment)),
                null,
                triggers,
                null,
                1);
    }

    private SessionArm session(Experiment e, String arm, String user, Instant at) {
        String agent = e.arm(arm).orElseThrow().agentId();
        Session s = Session.start(Ids.newId(), "acme", user, agent, null, at);
        conversations().createSession(s);
        SessionArm recorded = new SessionArm(s.id(), e.id(), arm, "acme", user, at);
        store().recordSession(recorded);
        return recorded;
    }

    /** One finished turn of the session's with a model call costing {@code cost} and these tool calls. */
    private void usage(SessionArm s, String cost, List<ToolCallState> toolStates) {
        Message answer = new Message(
                Ids.newId(),
                s.sessionId(),
                s.userId(),
                0,
                MessageRole.ASSISTANT,
                "ok",
                MessageStatus.COMPLETE,
                "m",
                T0);
        List<ToolCallRecord> calls = new ArrayList<>();
        for (ToolCallState state : toolStates)
            calls.add(new ToolCallRecord(
                    Ids.newId(), s.sessionId(), answer.id(), "lookup", "{}", null, state, null, T0, T0, 5));
        UsageRecord row = new UsageRecord(
                Ids.newId(),
                s.tenantId(),
                s.userId(),
                s.sessionId(),
                answer.id(),
                "simulator",
                "m",
                10,
                10,
                0,
                new BigDecimal(cost),
                10,
                T0);
        conversations().completeTurn(s.userId(), new TurnRecord(answer, calls, List.of(row)));
    }

    protected static OperatorAuditRecord audit(Experiment e, String action) {
        return new OperatorAuditRecord(Ids.newId(), OperatorAuditRecord.experiment(e.id()), action, "ops", "{}", T0);
    }

    protected static String suffix() {
        return Ids.newId().substring(24).toLowerCase(java.util.Locale.ROOT);
    }
}
