package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.id.Ids;
import dev.baton.runtime.experiment.ArmMetrics;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentDefinition;
import dev.baton.runtime.experiment.ExperimentStore;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.RollbackTriggers;
import dev.baton.runtime.experiment.Routing;
import dev.baton.runtime.experiment.SessionArm;
import dev.baton.runtime.experiment.UserFallback;
import dev.baton.testkit.time.SettableClock;
import java.util.List;
import java.util.Set;
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
 *
 * <p>The cases come in groups, one class each: the stores and the experiments the cases build
 * ({@code ExperimentStoreFixture}), definitions changed by compare-and-set ({@code ExperimentChangeCases}), arm
 * metrics and rollbacks ({@code ArmMetricsCases}), and here sessions' arms and a user's recent turns for the fallback.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ExperimentStoreContract extends ArmMetricsCases {
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
}
