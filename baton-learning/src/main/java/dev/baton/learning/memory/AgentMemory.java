package dev.baton.learning.memory;

import java.util.List;
import java.util.Objects;

/**
 * Everything the learning agent remembers about a learner: the state, the latest decisions (newest first) and the
 * latest messages of their running conversation (oldest first; empty in the agent's own context, where the turn's
 * history already carries them).
 */
public record AgentMemory(AgentState state, List<DecisionPoint> decisions, List<LearnerMessage> history) {
    public AgentMemory {
        Objects.requireNonNull(state, "state");
        decisions = List.copyOf(decisions);
        history = List.copyOf(history);
    }

    /** A memory without the conversation's messages. */
    public AgentMemory(AgentState state, List<DecisionPoint> decisions) {
        this(state, decisions, List.of());
    }
}
