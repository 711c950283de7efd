package dev.baton.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.config.ConfigNodes;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Resolves a session's effective configuration: org ({@code limits:} in baton.yaml) → agent (its {@code limits:}
 * block) → assignment (its {@code limits:} block); the most specific level that sets a key wins. The org and agent
 * levels of the per-turn limits are already merged into {@link AgentDefinition#limits()} when agents are loaded.
 */
public final class ConfigCascade {
    /** The section of baton.yaml that holds the org level. */
    public static final String SECTION = "limits";

    private final SessionLimits org;

    /** @param org the session limits of baton.yaml's {@code limits:} section */
    public ConfigCascade(SessionLimits org) {
        this.org = Objects.requireNonNull(org, "org");
    }

    /** Reads the org level from baton.yaml's {@code limits:} section. */
    public static ConfigCascade fromOrgLimits(JsonNode limitsSection) {
        return new ConfigCascade(SessionLimits.from(limitsSection));
    }

    public SessionLimits org() {
        return org;
    }

    /** @param assignment null when the session belongs to no assignment */
    public SessionConfig resolve(AgentDefinition agent, Assignment assignment) {
        SessionLimits session = SessionLimits.overlay(agent.sessionLimits(), org);
        TurnLimits turn = agent.limits();
        if (assignment != null) {
            JsonNode assignmentLimits = assignment.overrides().path("limits");
            turn = ConfigNodes.limits(assignmentLimits, turn);
            session = SessionLimits.overlay(assignmentLimits, session);
        }
        return new SessionConfig(turn, session);
    }

    /**
     * The shortest inactivity timeout any session started under this configuration can have: the sweep never looks
     * at sessions active more recently than that.
     */
    public Duration shortestInactivityTimeout(Collection<AgentDefinition> agents, Collection<Assignment> assignments) {
        return Stream.concat(
                        agents.stream().map(a -> resolve(a, null)),
                        assignments.stream()
                                .flatMap(as -> agents.stream()
                                        .filter(a -> a.id().equals(as.agentId()))
                                        .map(a -> resolve(a, as))))
                .map(c -> c.session().inactivityTimeout())
                .reduce(org.inactivityTimeout(), (x, y) -> x.compareTo(y) <= 0 ? x : y);
    }
}
