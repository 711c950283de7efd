package dev.baton.learning.content;

import dev.baton.core.id.Ids;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates queued content jobs, one at a time, on a background thread of this instance. Jobs are claimed in the
 * database under a lease, so any number of instances can run a worker: each job runs on one, and a job whose worker
 * died (a crash, a restart) is claimed again once its lease has run out. A failed attempt is retried while attempts
 * remain.
 */
public final class ContentWorker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ContentWorker.class);

    /**
     * @param poll how often an idle worker looks for work (a job started on this instance wakes it at once)
     * @param lease how long a claim holds before another worker may take the job over; longer than a generation
     * @param maxAttempts how many claims a job gets before it fails for good
     */
    public record Settings(Duration poll, Duration lease, int maxAttempts) {
        public static final Settings DEFAULTS = new Settings(Duration.ofSeconds(2), Duration.ofMinutes(5), 3);

        public Settings {
            Objects.requireNonNull(poll, "poll");
            Objects.requireNonNull(lease, "lease");
            if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be >= 1");
        }
    }

    private final ContentJobRepository repository;
    private final ContentGenerator generator;
    private final Clock clock;
    private final Settings settings;
    private final ContentDelivery delivery;
    private final String workerId = "worker-" + Ids.newId();
    private final Semaphore wake = new Semaphore(0);
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile Thread thread;

    public ContentWorker(ContentJobRepository repository, ContentGenerator generator, Clock clock, Settings settings) {
        this(repository, generator, clock, settings, ContentDelivery.NONE);
    }

    /** @param delivery hands each job this worker completed to the conversation that asked for it */
    public ContentWorker(
            ContentJobRepository repository,
            ContentGenerator generator,
            Clock clock,
            Settings settings,
            ContentDelivery delivery) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.generator = Objects.requireNonNull(generator, "generator");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.delivery = Objects.requireNonNull(delivery, "delivery");
    }

    /** Starts the background loop (once). */
    public ContentWorker start() {
        if (running.compareAndSet(false, true)) {
            thread = Thread.ofVirtual().name("learning-content-worker").start(this::loop);
        }
        return this;
    }

    /** Tells the loop there may be work now. */
    public void wake() {
        wake.release();
    }

    /**
     * Claims and generates one job, if there is one.
     *
     * @return the job as it ended, or empty when there was nothing to do
     */
    public Optional<ContentJob> runOnce() {
        Optional<ContentJob> claimed =
                repository.claim(workerId, clock.instant(), settings.lease(), settings.maxAttempts());
        if (claimed.isEmpty()) return Optional.empty();
        ContentJob job = claimed.get();
        try {
            String content = generator.generate(new ContentGenerator.ContentRequest(
                    job.id(),
                    job.topic(),
                    job.learner().tenantId(),
                    job.learner().userId(),
                    job.usageSessionId(),
                    job.origin().agentId()));
            if (content == null || content.isBlank())
                throw new ContentGenerator.ContentGenerationException("the model returned no content", true, null);
            if (repository.complete(job.id(), workerId, content, clock.instant())) {
                deliver(job.learner(), job.id());
            } else {
                log.warn("content job {} was taken over before it completed here; result dropped", job.id());
            }
        } catch (ContentGenerator.ContentGenerationException e) {
            boolean retry = e.retryable() && job.attempts() < settings.maxAttempts();
            repository.fail(job.id(), workerId, e.getMessage(), retry, clock.instant());
            log.warn(
                    "content job {} attempt {} failed ({}): {}",
                    job.id(),
                    job.attempts(),
                    retry ? "will retry" : "gave up",
                    e.getMessage());
        } catch (RuntimeException e) {
            boolean retry = job.attempts() < settings.maxAttempts();
            repository.fail(job.id(), workerId, "content generation failed", retry, clock.instant());
            log.warn("content job {} attempt {} failed unexpectedly", job.id(), job.attempts(), e);
        }
        return repository.find(job.learner(), job.id());
    }

    /** Only the worker whose completion was stored delivers, so a job is delivered once. */
    private void deliver(dev.baton.learning.Learner learner, String jobId) {
        try {
            repository.find(learner, jobId).ifPresent(delivery::deliver);
        } catch (RuntimeException e) {
            // the material stays readable over REST and in getUserProgress
            log.warn("content job {} completed but could not be delivered: {}", jobId, e.toString());
        }
    }

    private void loop() {
        while (running.get()) {
            try {
                while (running.get() && runOnce().isPresent()) {
                    // drain: one job after another while there is work
                }
                wake.tryAcquire(settings.poll().toMillis(), TimeUnit.MILLISECONDS);
                wake.drainPermits();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the database may be away for a moment; the next poll tries again
                log.warn("content worker poll failed: {}", e.toString());
                try {
                    Thread.sleep(settings.poll()); // back off before polling a failing database again
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /**
     * Stops the loop: it finishes the job in hand (for up to five seconds; then it is interrupted, and the job's lease
     * lets another worker take it over) and takes no other.
     */
    @Override
    public void close() {
        running.set(false);
        wake.release();
        Thread t = thread;
        if (t == null) return;
        try {
            // an interrupt in the middle of a database call would break the connection: ask first, insist later
            if (!t.join(Duration.ofSeconds(5))) {
                t.interrupt();
                t.join(Duration.ofSeconds(1));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
