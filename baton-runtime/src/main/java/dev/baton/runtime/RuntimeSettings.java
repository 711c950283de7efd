package dev.baton.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.runtime.admission.IdempotencyKeyExpiry;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.ApprovalPolicy;
import dev.baton.runtime.approval.ApprovalSettings;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.experiment.ExperimentSettings;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.session.ConfigCascade;
import dev.baton.runtime.session.SessionSweeper;
import dev.baton.runtime.stream.TurnEventLogSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The runtime's sections of a configuration tree, read and checked together: by {@link BatonBuilder#build()} and,
 * without building anything, by {@code baton config check}.
 */
record RuntimeSettings(
        Assignments assignments,
        ConfigCascade cascade,
        Duration shortestInactivity,
        SessionSweeper.Settings sweep,
        IdempotencyKeyExpiry.Settings expiry,
        ApprovalSettings approvals,
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
            TurnEventLogSettings.SECTION,
            ExperimentSettings.SECTION,
            FlagSettings.SECTION);

    /**
     * @throws ConfigException naming the first setting that is wrong (with its {@link dev.baton.core.config.ConfigProblem}
     *     as the cause, for the file's owner to locate)
     */
    static RuntimeSettings read(JsonNode root, AgentRegistry agents, Map<String, String> env) {
        try {
            Assignments assignments = Assignments.fromConfig(root.path(Assignments.SECTION), agents);
            ConfigCascade cascade = ConfigCascade.fromOrgLimits(root.path(ConfigCascade.SECTION));
            agents.all().forEach(ApprovalPolicy::validate);
            return new RuntimeSettings(
                    assignments,
                    cascade,
                    // validates every level now, so a bad limit fails at start rather than when a session starts
                    cascade.shortestInactivityTimeout(agents.all(), assignments.all()),
                    SessionSweeper.Settings.from(root.path(SessionSweeper.Settings.SECTION)),
                    IdempotencyKeyExpiry.Settings.from(root.path(IdempotencyKeyExpiry.Settings.SECTION)),
                    ApprovalSettings.from(root.path(ApprovalSettings.SECTION)),
                    TurnEventLogSettings.from(root.path(TurnEventLogSettings.SECTION)),
                    ExperimentSettings.from(root.path(ExperimentSettings.SECTION), agents),
                    FlagSettings.from(root.path(FlagSettings.SECTION), env));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }
}
