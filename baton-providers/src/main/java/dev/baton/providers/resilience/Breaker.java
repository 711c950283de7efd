package dev.baton.providers.resilience;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A circuit breaker for one model provider or one tool source, on Resilience4j. It opens after
 * {@link BreakerSettings#failureThreshold()} consecutive counted failures (a count-based window of that size
 * that must be 100% failures), fails calls fast while open, and after {@link BreakerSettings#openDuration()}
 * admits {@link BreakerSettings#halfOpenProbes()} probes whose outcome closes it again or re-opens it.
 *
 * <p>The caller decides what counts: {@link #onFailure} for failures of the other side (5xx, timeouts, broken
 * connections), {@link #release} for everything that says nothing about its health (the caller's own bad request,
 * a rate limit, a cancellation). All transitions read the injected clock — there is no background timer — so
 * tests move time instead of sleeping. Every state change is logged on {@code baton.circuit} as a structured event
 * with the breaker's name under {@code provider} or {@code toolSource} and {@code from}/{@code to}.
 */
public final class Breaker {
    private static final Logger log = LoggerFactory.getLogger("baton.circuit");

    private final String kind;
    private final String name;
    private final Clock clock;
    private final Duration openDuration;
    private final CircuitBreaker breaker;
    private volatile Instant openUntil = Instant.MIN;

    private Breaker(String kind, String name, BreakerSettings settings, Clock clock, BreakerListener listener) {
        Objects.requireNonNull(listener, "listener");
        this.kind = kind;
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.openDuration = settings.openDuration();
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(settings.failureThreshold())
                .minimumNumberOfCalls(settings.failureThreshold())
                .failureRateThreshold(100)
                // slowness is judged by our own timeouts, which count as failures
                .slowCallRateThreshold(100)
                .slowCallDurationThreshold(Duration.ofDays(1))
                .waitDurationInOpenState(settings.openDuration())
                .permittedNumberOfCallsInHalfOpenState(settings.halfOpenProbes())
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .writableStackTraceEnabled(false)
                .clock(clock)
                .build();
        this.breaker = CircuitBreaker.of(kind + ":" + name, config);
        breaker.getEventPublisher().onStateTransition(event -> {
            CircuitBreaker.State from = event.getStateTransition().getFromState();
            CircuitBreaker.State to = event.getStateTransition().getToState();
            if (to == CircuitBreaker.State.OPEN) {
                openUntil = this.clock.instant().plus(openDuration);
            }
            var line = to == CircuitBreaker.State.OPEN ? log.atWarn() : log.atInfo();
            line.addKeyValue("event", "breaker_state_changed")
                    .addKeyValue(kind, name)
                    .addKeyValue("from", from.name())
                    .addKeyValue("to", to.name())
                    .log("circuit breaker of {} {} went from {} to {}", kind, name, from, to);
            listener.transitioned(this, from, to);
        });
        listener.created(this);
    }

    /** The breaker of a model provider; its log events carry {@code provider}. */
    public static Breaker forProvider(String provider, BreakerSettings settings, Clock clock) {
        return forProvider(provider, settings, clock, BreakerListener.NONE);
    }

    /** The breaker of a model provider, announced to {@code listener} now and on every change of state. */
    public static Breaker forProvider(
            String provider, BreakerSettings settings, Clock clock, BreakerListener listener) {
        return new Breaker("provider", provider, settings, clock, listener);
    }

    /** The breaker of a tool source; its log events carry {@code toolSource}. */
    public static Breaker forToolSource(String source, BreakerSettings settings, Clock clock) {
        return forToolSource(source, settings, clock, BreakerListener.NONE);
    }

    /** The breaker of a tool source, announced to {@code listener} now and on every change of state. */
    public static Breaker forToolSource(
            String source, BreakerSettings settings, Clock clock, BreakerListener listener) {
        return new Breaker("toolSource", source, settings, clock, listener);
    }

    /** What the breaker guards: {@code provider} or {@code toolSource}. */
    public String kind() {
        return kind;
    }

    public String name() {
        return name;
    }

    /**
     * Asks to make one call. True: make it, then report exactly one of {@link #onSuccess}, {@link #onFailure} or
     * {@link #release}. False: the breaker is open (or its probes are all out) — fail fast without calling.
     */
    public boolean tryAcquire() {
        return breaker.tryAcquirePermission();
    }

    public void onSuccess(long durationNanos) {
        breaker.onSuccess(durationNanos, TimeUnit.NANOSECONDS);
    }

    /** A failure of the other side: it counts towards opening the breaker (or re-opens a half-open one). */
    public void onFailure(long durationNanos, Throwable failure) {
        breaker.onError(durationNanos, TimeUnit.NANOSECONDS, failure);
    }

    /** The call ended in a way that says nothing about the other side's health: it neither counts nor succeeds. */
    public void release() {
        breaker.releasePermission();
    }

    public CircuitBreaker.State state() {
        return breaker.getState();
    }

    /**
     * How long until an open breaker lets a probe through; zero when it is not open or a probe may already go
     * (a half-open breaker whose probes are all out reports zero too: the answer is moments away).
     */
    public Duration remainingOpen() {
        if (breaker.getState() != CircuitBreaker.State.OPEN) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(clock.instant(), openUntil);
        return left.isNegative() ? Duration.ZERO : left;
    }

    @Override
    public String toString() {
        return "Breaker[" + kind + "=" + name + ", " + breaker.getState() + "]";
    }
}
