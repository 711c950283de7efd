package dev.baton.learning.content;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.Texts;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * Starting and reading content-generation jobs (generateContent). Starting only persists the job and returns: a
 * {@link ContentWorker} on any instance generates it later, so a turn never waits for the material.
 */
public final class ContentJobs {
    public static final int MAX_TOPIC = 200;
    /** A listing returns at most this many jobs. */
    public static final int MAX_LISTED = 50;

    private final ContentJobRepository repository;
    private final Clock clock;
    private final Runnable wake;
    private final ContentGenerator admission;

    /** @param wake nudges the local worker to look for work at once (it also polls) */
    public ContentJobs(ContentJobRepository repository, Clock clock, Runnable wake) {
        this(repository, clock, wake, null);
    }

    /**
     * @param admission asked before a job is queued whether its owner may start one now (see
     *     {@link ContentGenerator#admit}); null when no generator of this instance writes jobs
     */
    public ContentJobs(ContentJobRepository repository, Clock clock, Runnable wake, ContentGenerator admission) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.wake = Objects.requireNonNull(wake, "wake");
        this.admission = admission;
    }

    /**
     * Queues material on {@code topic} for the caller, or returns their unfinished job on the same topic.
     *
     * @throws LearningException invalid_argument for an empty or overlong topic
     */
    public ContentJob start(Principal principal, String topic) {
        return start(principal, topic, ContentJob.Origin.NONE);
    }

    /**
     * Like {@link #start(Principal, String)}, for a job started in a conversation: its model usage is recorded under
     * {@code origin}'s session and agent.
     *
     * @throws dev.baton.runtime.RefusalException when the caller's rate limits or budgets refuse a new job (an
     *     unfinished job on the same topic is returned whatever they say: it calls no model again)
     */
    public ContentJob start(Principal principal, String topic, ContentJob.Origin origin) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        String text = Texts.required(topic, "topic", MAX_TOPIC);
        Learner learner = Learner.of(principal);
        var running = repository.unfinished(learner, text);
        if (running.isPresent()) return running.get();
        if (admission != null) admission.admit(principal, origin.agentId());
        ContentJob job = ContentJob.queued(
                Ids.newId(), learner, text, origin, clock.instant().truncatedTo(ChronoUnit.MICROS));
        repository.insert(job);
        wake.run();
        return job;
    }

    /** @throws LearningException not_found unless the caller owns a job with this id */
    public ContentJob get(Principal principal, String jobId) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        if (!Texts.plausibleId(jobId)) throw LearningException.notFound("content job", jobId);
        return repository
                .find(Learner.of(principal), jobId)
                .orElseThrow(() -> LearningException.notFound("content job", jobId));
    }

    /** The learner's newest jobs, for the agent's context (no permission check: the learner is the caller). */
    public List<ContentJob> recent(Learner learner, int limit) {
        return repository.recent(learner, Math.min(limit, MAX_LISTED));
    }

    /** The caller's jobs, newest first. */
    public List<ContentJob> list(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return repository.recent(Learner.of(principal), MAX_LISTED);
    }
}
