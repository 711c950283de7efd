package dev.baton.learning.memory;

import dev.baton.learning.Learner;
import dev.baton.learning.library.Granularity;
import java.time.Instant;
import java.util.Objects;

/**
 * What the learning agent holds about one learner between conversations.
 *
 * @param currentTopic the topic the learner confirmed last, or null
 * @param currentGranularity how broad that topic is, or null
 * @param pendingQuestion the question the agent asked and awaits an answer to (confirmWithUser), or null
 */
public record AgentState(
        Learner learner,
        String currentTopic,
        Granularity currentGranularity,
        String pendingQuestion,
        Instant updatedAt) {
    public AgentState {
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    public static AgentState empty(Learner learner, Instant now) {
        return new AgentState(learner, null, null, null, now);
    }

    public AgentState awaiting(String question, Instant now) {
        return new AgentState(learner, currentTopic, currentGranularity, question, now);
    }

    /** A confirmed topic replaces the current one and answers the pending question. */
    public AgentState withTopic(String topic, Granularity granularity, Instant now) {
        return new AgentState(learner, topic, granularity, null, now);
    }

    public AgentState touched(Instant now) {
        return new AgentState(learner, currentTopic, currentGranularity, pendingQuestion, now);
    }
}
