package dev.baton.learning.content;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/**
 * One request to prepare learning material on a topic, for one learner.
 *
 * @param content the generated material once completed, else null
 * @param error why it failed (the last attempt's reason) once failed, else null
 * @param attempts how many times a worker claimed it
 * @param origin the conversation and agent whose tool call started it; {@link Origin#NONE} when started over REST
 */
public record ContentJob(
        String id,
        Learner learner,
        String topic,
        JobStatus status,
        String content,
        String error,
        int attempts,
        Instant createdAt,
        Instant updatedAt,
        Origin origin) {
    public ContentJob {
        origin = origin == null ? Origin.NONE : origin;
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    public static ContentJob queued(String id, Learner learner, String topic, Origin origin, Instant now) {
        return new ContentJob(id, learner, topic, JobStatus.QUEUED, null, null, 0, now, now, origin);
    }

    /**
     * The conversation a job was started from, for the usage its generation causes.
     *
     * @param sessionId the session of the tool call that started it; null when none did
     * @param agentId that session's agent; null when none
     */
    public record Origin(String sessionId, String agentId) {
        public static final Origin NONE = new Origin(null, null);
    }

    /** The session its model usage is recorded under: its conversation's, or the job itself when it has none. */
    public String usageSessionId() {
        return origin.sessionId() != null ? origin.sessionId() : id;
    }
}
