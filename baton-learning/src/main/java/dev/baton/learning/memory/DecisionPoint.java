package dev.baton.learning.memory;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/**
 * A decision the learning agent recorded (storeDecision): what was decided, with its data, in which conversation.
 *
 * @param decision a short name such as {@code topic_confirmed}
 * @param sessionId the conversation it was made in, or null when recorded outside one
 */
public record DecisionPoint(
        String id, Learner learner, String sessionId, String decision, ObjectNode data, Instant createdAt) {
    public DecisionPoint {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(decision, "decision");
        data = data == null ? null : data.deepCopy();
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
