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
        Instant updatedAt) {
    public ContentJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    public static ContentJob queued(String id, Learner learner, String topic, Instant now) {
        return new ContentJob(id, learner, topic, JobStatus.QUEUED, null, null, 0, now, now);
    }
}
