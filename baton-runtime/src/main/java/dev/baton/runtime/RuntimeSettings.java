package dev.baton.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.runtime.admission.IdempotencyKeyExpiry;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.ApprovalSettings;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.durable.DurableTurnSettings;
import dev.baton.runtime.experiment.ExperimentSettings;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.session.ConfigCascade;
import dev.baton.runtime.session.SessionLimits;
import dev.baton.runtime.session.SessionSweeper;
import dev.baton.runtime.stream.TurnEventLogSettings;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The runtime's sections of a configuration tree, each read by its own settings type: {@link BatonBuilder#configure}
 * hands each to its builder setter, and {@code baton config check} reads them with the agents at hand.
 */
record RuntimeSettings(
        SessionLimits sessionLimits,
        Assignments assignments,
        SessionSweeper.Settings lifecycle,
        IdempotencyKeyExpiry.Settings idempotency,
        ApprovalSettings approvals,
        DurableTurnSettings durableTurns,
        TurnEventLogSettings streams,
        ExperimentSettings experiments,
        FlagSettings flags) {

    /** The sections read: whoever owns the tree knows these keys. */
    static final List<String> SECTIONS = List.of(
            ConfigCascade.SECTION,
            Assignments.SECTION,
            SessionSweeper.Settings.SECTION,
            IdempotencyKeyExpiry.Settings.SECTION,
            ApprovalSettings.SECTION,
            DurableTurnSettings.SECTION,
            TurnEventLogSettings.SECTION,
            ExperimentSettings.SECTION,
            FlagSettings.SECTION);

    /**
     * Reads every section; what depends on the agents (the agents assignments and experiments name) is checked when
     * the runtime is built, and {@code FF_} flags are read from the builder's environment then.
     *
     * @throws ConfigException naming the first setting that is wrong (with its {@link dev.baton.core.config.ConfigProblem}
     *     as the cause, for the file's owner to locate)
     */
    static RuntimeSettings read(JsonNode root) {
        return readOrExplain(() -> new RuntimeSettings(
                SessionLimits.from(root.path(ConfigCascade.SECTION)),
                Assignments.from(root.path(Assignments.SECTION)),
                SessionSweeper.Settings.from(root.path(SessionSweeper.Settings.SECTION)),
                IdempotencyKeyExpiry.Settings.from(root.path(IdempotencyKeyExpiry.Settings.SECTION)),
                ApprovalSettings.from(root.path(ApprovalSettings.SECTION)),
                DurableTurnSettings.from(root.path(DurableTurnSettings.SECTION)),
                TurnEventLogSettings.from(root.path(TurnEventLogSettings.SECTION)),
                ExperimentSettings.from(root.path(ExperimentSettings.SECTION)),
                FlagSettings.from(root.path(FlagSettings.SECTION))));
    }

    /**
     * Reads and checks every section for these agents and this environment, as building would, locating a problem
     * with an agent in the tree ({@code baton config check}).
     *
     * @throws ConfigException naming the first setting that is wrong
     */
    static void check(JsonNode root, AgentRegistry agents, Map<String, String> env) {
        RuntimeSettings read = read(root);
        readOrExplain(() -> {
            // read again with the agents, so that an experiment naming an unknown one is located in the tree
            ExperimentSettings.from(root.path(ExperimentSettings.SECTION), agents);
            return read.flags().withEnvironment(env);
        });
        checkAgents(read.sessionLimits(), read.assignments(), read.experiments(), agents);
    }

    /**
     * Checks the settings that depend on the agents: every agent an assignment or experiment names exists, every
     * level of the limits cascade is valid for every agent and assignment.
     *
     * @throws ConfigException naming the first setting that is wrong
     */
    static void checkAgents(
            SessionLimits org, Assignments assignments, ExperimentSettings experiments, AgentRegistry agents) {
        readOrExplain(() -> {
            assignments.requireAgents(agents);
            experiments.requireAgents(agents);
            // validates every level now, so a bad limit fails at start rather than when a session starts
            new ConfigCascade(org).shortestInactivityTimeout(agents.all(), assignments.all());
            return null;
        });
    }

    private static <T> T readOrExplain(Supplier<T> reader) {
        try {
            return reader.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }
}
