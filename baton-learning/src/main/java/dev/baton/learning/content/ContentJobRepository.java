package dev.baton.learning.content;

import dev.baton.learning.Learner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where content jobs are kept, and how workers on any instance take turns at them. */
public interface ContentJobRepository {

    void insert(ContentJob job);

    Optional<ContentJob> find(Learner learner, String id);

    /** The learner's unfinished job on this topic, if any (so asking twice does not generate twice). */
    Optional<ContentJob> unfinished(Learner learner, String topic);

    /** The learner's jobs, newest first, at most {@code limit}. */
    List<ContentJob> recent(Learner learner, int limit);

    /**
     * Takes the oldest job that is queued, or running under a lease that ran out (its worker died), for
     * {@code workerId}: marks it running with a lease until {@code now + lease} and counts the attempt. Two workers
     * never take the same job at once. A job whose lease ran out after its last allowed attempt fails instead.
     */
    Optional<ContentJob> claim(String workerId, Instant now, Duration lease, int maxAttempts);

    /** Stores the result, if {@code workerId} still holds the job; @return whether it did. */
    boolean complete(String id, String workerId, String content, Instant now);

    /**
     * Records a failed attempt, if {@code workerId} still holds the job: queued again while attempts remain, failed
     * for good otherwise.
     */
    boolean fail(String id, String workerId, String error, boolean retry, Instant now);
}
