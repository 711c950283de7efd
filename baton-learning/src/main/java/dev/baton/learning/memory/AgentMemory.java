package dev.baton.learning.memory;

import java.util.List;
import java.util.Objects;

/** Everything the learning agent remembers about a learner: the state and the latest decisions, newest first. */
public record AgentMemory(AgentState state, List<DecisionPoint> decisions) {
    public AgentMemory {
        Objects.requireNonNull(state, "state");
        decisions = List.copyOf(decisions);
    }
}
