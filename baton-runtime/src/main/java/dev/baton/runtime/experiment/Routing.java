package dev.baton.runtime.experiment;

import dev.baton.core.agent.AgentDefinition;
import java.util.Objects;

/**
 * Where a new session goes: the agent it starts with and, when an experiment routed it, the experiment and arm.
 *
 * @param experimentId null when no experiment is over the requested agent
 * @param arm the arm's name, {@link #FALLBACK_ARM} for a user routed to the experiment's fallback agent; null
 *     without an experiment
 */
public record Routing(AgentDefinition agent, String experimentId, String arm) {
    /** The arm recorded for sessions of users the fallback took (no arm name can start with '_'). */
    public static final String FALLBACK_ARM = "_fallback";

    public Routing {
        Objects.requireNonNull(agent, "agent");
        if ((experimentId == null) != (arm == null))
            throw new IllegalArgumentException("experimentId and arm go together");
    }

    /** The requested agent, no experiment. */
    public static Routing direct(AgentDefinition agent) {
        return new Routing(agent, null, null);
    }

    public boolean inExperiment() {
        return experimentId != null;
    }
}
