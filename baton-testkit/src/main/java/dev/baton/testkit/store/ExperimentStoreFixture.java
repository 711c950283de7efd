package dev.baton.testkit.store;

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
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentListener;
import dev.baton.runtime.experiment.ExperimentStore;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.RollbackTriggers;
import dev.baton.runtime.experiment.SessionArm;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.flag.FlagStore;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The stores one run of the {@link ExperimentStoreContract} works on, the hooks a store's suite fills in, and the
 * experiments, sessions, usage and audit records the cases build. A store's suite extends the contract, not this
 * class.
 */
abstract class ExperimentStoreFixture {
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

    /** The rollbacks a run of the triggers made to {@code e}: the other tests' experiments are judged too. */
    static List<Experiments.Rollback> rollbacksOf(Experiments experiments, Experiment e) {
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

    SessionArm session(Experiment e, String arm, String user, Instant at) {
        String agent = e.arm(arm).orElseThrow().agentId();
        Session s = Session.start(Ids.newId(), "acme", user, agent, null, at);
        conversations().createSession(s);
        SessionArm recorded = new SessionArm(s.id(), e.id(), arm, "acme", user, at);
        store().recordSession(recorded);
        return recorded;
    }

    /** One finished turn of the session's with a model call costing {@code cost} and these tool calls. */
    void usage(SessionArm s, String cost, List<ToolCallState> toolStates) {
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
