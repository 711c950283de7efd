package dev.baton.providers.resilience;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelResolver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decorates another resolver so that every model call is resilient: each gateway it resolves is wrapped once in a
 * {@link ResilientModelGateway} (so every reference to one provider endpoint shares one circuit breaker), and
 * {@link #resolve(String, List)} returns a binding that falls back to the listed models in order when the primary
 * fails or its circuit is open. Thread-safe. {@link #close()} closes the decorated resolver when it is
 * closeable.
 */
public final class ResilientModelResolver implements ModelResolver, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ResilientModelResolver.class);

    private final ModelResolver delegate;
    private final ResilienceSettings settings;
    private final Clock clock;
    private final Sleeper sleeper;
    private final DoubleSupplier random;
    private final BreakerListener breakerListener;
    private final Map<ModelGateway, ResilientModelGateway> gateways = new ConcurrentHashMap<>();

    /** Production wiring: real sleeps and random jitter. */
    public ResilientModelResolver(ModelResolver delegate, ResilienceSettings settings, Clock clock) {
        this(
                delegate,
                settings,
                clock,
                Sleeper.SYSTEM,
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * @param clock drives the circuit breakers' transitions
     * @param sleeper waits between a failure and its retry
     * @param random a uniform value in [0, 1) for the retry jitter
     */
    public ResilientModelResolver(
            ModelResolver delegate, ResilienceSettings settings, Clock clock, Sleeper sleeper, DoubleSupplier random) {
        this(delegate, settings, clock, sleeper, random, BreakerListener.NONE);
    }

    private ResilientModelResolver(
            ModelResolver delegate,
            ResilienceSettings settings,
            Clock clock,
            Sleeper sleeper,
            DoubleSupplier random,
            BreakerListener breakerListener) {
        this.breakerListener = Objects.requireNonNull(breakerListener, "breakerListener");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * This resolver with every provider breaker it creates from now on announced to {@code listener} (for metrics).
     * Call it while wiring, before the first resolve: the copy starts with no gateways of its own.
     */
    public ResilientModelResolver withBreakerListener(BreakerListener listener) {
        return new ResilientModelResolver(delegate, settings, clock, sleeper, random, listener);
    }

    @Override
    public ModelBinding resolve(String reference) {
        ModelBinding binding = delegate.resolve(reference);
        return new ModelBinding(binding.reference(), resilient(binding.gateway()), binding.model());
    }

    /**
     * The primary with its fallbacks. A fallback that cannot be resolved (an unknown provider, one with no key) is
     * left out with a warning: a broken fallback must not take the working primary down with it.
     */
    @Override
    public ModelBinding resolve(String primary, List<String> fallbacks) {
        ModelBinding first = resolve(primary);
        if (fallbacks == null || fallbacks.isEmpty()) {
            return first;
        }
        List<ModelBinding> chain = new ArrayList<>();
        chain.add(first);
        for (String fallback : fallbacks) {
            try {
                chain.add(resolve(fallback));
            } catch (IllegalArgumentException e) {
                log.warn("fallback model {} of {} is left out: {}", fallback, primary, e.getMessage());
            }
        }
        if (chain.size() == 1) {
            return first;
        }
        return new ModelBinding(primary, new FallbackModelGateway(chain), first.model());
    }

    /** The resilient gateway of a provider endpoint, e.g. to look at its breaker; created on first use. */
    public ResilientModelGateway resilient(ModelGateway gateway) {
        if (gateway instanceof ResilientModelGateway resilient) {
            return resilient;
        }
        return gateways.computeIfAbsent(
                gateway,
                g -> new ResilientModelGateway(
                        g,
                        Breaker.forProvider(g.provider(), settings.breaker(), clock, breakerListener),
                        settings,
                        sleeper,
                        random));
    }

    /**
     * The state of each provider endpoint's breaker ({@code closed}, {@code open}, {@code half_open}), by provider,
     * for the endpoints resolved so far; in provider order.
     */
    public Map<String, String> breakerStates() {
        Map<String, String> states = new java.util.TreeMap<>();
        gateways.values()
                .forEach(
                        g -> states.put(g.provider(), g.breaker().state().name().toLowerCase(java.util.Locale.ROOT)));
        return states;
    }

    @Override
    public void close() {
        if (delegate instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                log.warn("closing the model resolver failed", e);
            }
        }
    }
}
