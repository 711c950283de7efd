package dev.baton.learning.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * One message of a learner's conversation with the learning agent, as the learning design's memory shows it
 * ({@code AgentMessage}: role, content, timestamp).
 *
 * @param role {@code user} or {@code assistant}
 */
public record LearnerMessage(String conversationId, String role, String content, Instant timestamp) {
    public LearnerMessage {
        Objects.requireNonNull(conversationId, "conversationId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(timestamp, "timestamp");
    }
}
