package dev.baton.providers.resilience;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * Hears about circuit breakers: each one as it is created, and each change of state. The server's metrics use it to
 * publish a breaker's state and count its transitions without the breaker knowing about any metrics library.
 * Called on the thread that creates the breaker or makes the call that moves it; implementations must be quick and
 * thread-safe, and must not throw.
 */
public interface BreakerListener {
    /** Hears nothing. */
    BreakerListener NONE = new BreakerListener() {};

    /** A breaker was created; its {@link Breaker#kind()} and {@link Breaker#name()} identify it. */
    default void created(Breaker breaker) {}

    /** The breaker went from one state to another. */
    default void transitioned(Breaker breaker, CircuitBreaker.State from, CircuitBreaker.State to) {}
}
