package dev.baton.wire;

/**
 * The names of the meters both doors record, so that a dashboard built on {@code baton serve}'s reads an app with the
 * Spring Boot starter the same (observability.md). The server records many more; these are the ones the starter
 * records too, with the same tags.
 */
public final class MeterNames {
    /** Turns, by {@code agent} and {@code outcome}. */
    public static final String TURNS = "baton.turns";

    /** Turn duration, by {@code agent} and {@code outcome}. */
    public static final String TURN_DURATION = "baton.turn.duration";

    /** Messages refused by a rate limit or a budget, by {@code kind}. */
    public static final String LIMIT_REFUSALS = "baton.limit.refusals";

    /** 1 for the state a circuit breaker is in, 0 for the others, by {@code kind}, {@code name}, {@code state}. */
    public static final String BREAKER_STATE = "baton.circuit.breaker.state";

    /** Circuit breaker state changes, by {@code kind}, {@code name}, {@code from} and {@code to}. */
    public static final String BREAKER_TRANSITIONS = "baton.circuit.breaker.transitions";

    private MeterNames() {}
}
