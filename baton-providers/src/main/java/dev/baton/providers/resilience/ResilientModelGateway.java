package dev.baton.providers.resilience;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.langchain4j.exception.HttpException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's gateway behind its circuit breaker, with a time-to-first-token limit and the retry rules. Any delta
 * counts as the first token: text, thinking, or a piece of a tool call (a reply that only calls tools is streaming
 * while it writes their arguments, however long they are).
 *
 * <ul>
 *   <li>a timeout is retried once with a first-token limit {@link ResilienceSettings#timeoutRetryFactor()} times
 *       longer, when what is left of the call's overall limit allows one;
 *   <li>a 502/503/504 (or 529), a dropped connection or a broken stream is retried once after
 *       {@link ResilienceSettings#retryDelay()} with jitter; a plain 500 is not (it is rarely transient);
 *   <li>a rate limit (429), an authentication failure, a bad request and a cancellation are never retried; an
 *       authentication failure is logged at ERROR as critical: an operator must fix the key;
 *   <li>nothing is retried once a text delta has reached {@code onDelta} — the client would see the text twice.
 *       Tool-call deltas do not count: the client sees tool calls only once the model has finished, so an attempt
 *       that fails while writing them can still be retried or fall back.
 * </ul>
 *
 * Only {@code UNAVAILABLE} and {@code TIMEOUT} count towards the breaker; while it is open, calls fail at once
 * with {@code UNAVAILABLE} carrying the time until it lets a probe through as {@link ModelFailure#retryAfter()},
 * without touching the provider. All attempts share the request's timeout, so the caller's own deadline holds.
 */
public final class ResilientModelGateway implements ModelGateway {
    private static final Logger log = LoggerFactory.getLogger(ResilientModelGateway.class);
    private static final Set<Integer> TRANSIENT_STATUSES = Set.of(502, 503, 504, 529);
    private static final Duration MIN_RETRY_AFTER = Duration.ofSeconds(1);

    private final ModelGateway delegate;
    private final Breaker breaker;
    private final ResilienceSettings settings;
    private final Sleeper sleeper;
    private final DoubleSupplier random;
    private final ModelAttempt attempts;

    /** @param random a uniform value in [0, 1) for the retry jitter */
    public ResilientModelGateway(
            ModelGateway delegate,
            Breaker breaker,
            ResilienceSettings settings,
            Sleeper sleeper,
            DoubleSupplier random) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.breaker = Objects.requireNonNull(breaker, "breaker");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.random = Objects.requireNonNull(random, "random");
        this.attempts = new ModelAttempt(delegate);
    }

    @Override
    public String provider() {
        return delegate.provider();
    }

    public Breaker breaker() {
        return breaker;
    }

    public ModelGateway delegate() {
        return delegate;
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        return stream(request, onDelta, new AtomicBoolean());
    }

    /** As {@link #stream(ModelRequest, Consumer)}, reporting into {@code textSent} whether text reached the client. */
    ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta, AtomicBoolean textSent) {
        long deadline = System.nanoTime() + request.timeout().toNanos();
        Duration firstToken = settings.timeToFirstToken();
        ModelFailure previous = null;
        for (int attempt = 1; ; attempt++) {
            if (!breaker.tryAcquire()) {
                // a retry refused because this call's own failure opened the breaker reports that failure
                throw previous != null ? previous : circuitOpen();
            }
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            if (left.isNegative() || left.isZero()) {
                breaker.release();
                throw previous != null
                        ? previous
                        : new ModelFailure(Kind.TIMEOUT, provider() + " call used up its " + request.timeout());
            }
            long started = System.nanoTime();
            try {
                ModelReply reply = attempts.run(request, shorter(firstToken, left), left, onDelta, textSent);
                breaker.onSuccess(System.nanoTime() - started);
                return reply;
            } catch (ModelFailure failure) {
                record(failure, System.nanoTime() - started);
                Duration retryWait = retryWait(failure, attempt, textSent.get(), request, deadline, firstToken);
                if (retryWait == null) {
                    throw failure;
                }
                log.info(
                        "{} call failed ({}), retrying in {} ms: {}",
                        provider(),
                        failure.kind(),
                        retryWait.toMillis(),
                        failure.getMessage());
                pause(retryWait);
                previous = failure;
                if (failure.kind() == Kind.TIMEOUT) {
                    firstToken = Duration.ofNanos((long) (firstToken.toNanos() * settings.timeoutRetryFactor()));
                }
            } catch (RuntimeException | Error e) {
                // not a provider failure (the delta consumer threw, or a bug): it says nothing about the provider's
                // health, but the permit must go back — a half-open breaker would otherwise wait for it forever
                breaker.release();
                throw e;
            }
        }
    }

    /** How long to wait before retrying, or null when the failure must not be retried. */
    private Duration retryWait(
            ModelFailure failure,
            int attempt,
            boolean textSent,
            ModelRequest request,
            long deadline,
            Duration firstToken) {
        if (attempt > 1 || textSent || request.cancellation().isCancelled()) {
            return null;
        }
        long leftNanos = deadline - System.nanoTime();
        return switch (failure.kind()) {
            // a retry with less time than the attempt that just timed out would only time out again
            case TIMEOUT -> leftNanos >= firstToken.toNanos() ? Duration.ZERO : null;
            case UNAVAILABLE -> {
                if (!transientFailure(failure)) {
                    yield null;
                }
                Duration wait = jittered(settings.retryDelay());
                yield leftNanos > wait.toNanos() ? wait : null;
            }
            case RATE_LIMITED, AUTHENTICATION, BAD_REQUEST, CANCELLED -> null;
        };
    }

    private void record(ModelFailure failure, long durationNanos) {
        switch (failure.kind()) {
            case UNAVAILABLE, TIMEOUT -> breaker.onFailure(durationNanos, failure);
            case AUTHENTICATION -> {
                breaker.release();
                log.atError()
                        .addKeyValue("provider", provider())
                        .addKeyValue("severity", "critical")
                        .log(
                                "CRITICAL: model provider {} rejected Baton's credentials or configuration; "
                                        + "every call to it will fail until an operator fixes it: {}",
                                provider(),
                                failure.getMessage());
            }
            // the caller's own request, the provider asking us to slow down, or the user leaving: no health signal
            case RATE_LIMITED, BAD_REQUEST, CANCELLED -> breaker.release();
        }
    }

    /** A 502/503/504/529, or a failure with no HTTP status at all (a refused or dropped connection, a broken stream). */
    static boolean transientFailure(ModelFailure failure) {
        for (Throwable t = failure.getCause(); t != null; t = t.getCause()) {
            if (t instanceof HttpException http) {
                return TRANSIENT_STATUSES.contains(http.statusCode());
            }
        }
        return true;
    }

    private Duration jittered(Duration base) {
        double spread = settings.retryJitter() * (2 * random.getAsDouble() - 1);
        return Duration.ofNanos(Math.max(0, Math.round(base.toNanos() * (1 + spread))));
    }

    private void pause(Duration wait) {
        if (wait.isZero()) {
            return;
        }
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelFailure(Kind.CANCELLED, provider() + " retry interrupted");
        }
    }

    private ModelFailure circuitOpen() {
        Duration left = breaker.remainingOpen();
        Duration retryAfter = left.compareTo(MIN_RETRY_AFTER) < 0 ? MIN_RETRY_AFTER : left;
        return new ModelFailure(
                Kind.UNAVAILABLE,
                provider() + " circuit breaker is open; failing fast for another " + retryAfter.toSeconds() + " s",
                retryAfter,
                null);
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    public String toString() {
        return "ResilientModelGateway[" + delegate + ", " + breaker + "]";
    }
}
