package dev.baton.store.jdbc;

import dev.baton.core.store.StoreUnavailableException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breaker in front of a {@link Database}: once three of the last five calls could not reach the database,
 * every call fails at once for {@link DatabaseSettings#breakerOpenFor()}, then one call probes. Opening and closing
 * are logged on {@code baton.database}.
 */
final class DatabaseBreaker {
    private static final Logger health = LoggerFactory.getLogger("baton.database");

    private DatabaseBreaker() {}

    /** @param lastFailure what the last failed call ran into, for the log line of the breaker opening */
    static CircuitBreaker create(Dialect dialect, DatabaseSettings settings, Supplier<String> lastFailure) {
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(5)
                .minimumNumberOfCalls(3)
                .failureRateThreshold(50)
                // slowness is bounded by the pool's connection timeout, which fails as unavailable
                .slowCallRateThreshold(100)
                .slowCallDurationThreshold(Duration.ofDays(1))
                .waitDurationInOpenState(settings.breakerOpenFor())
                .permittedNumberOfCallsInHalfOpenState(1)
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .recordExceptions(StoreUnavailableException.class, SQLException.class)
                .writableStackTraceEnabled(false)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("database", config);
        breaker.getEventPublisher().onStateTransition(event -> {
            CircuitBreaker.State to = event.getStateTransition().getToState();
            switch (to) {
                case OPEN ->
                    health.atWarn()
                            .addKeyValue("dialect", dialect.name())
                            .addKeyValue("circuit", "open")
                            .log(
                                    "database unavailable: requests fail at once with 503 database_unavailable, "
                                            + "next probe in {}; last error: {}",
                                    settings.breakerOpenFor(),
                                    lastFailure.get());
                case CLOSED ->
                    health.atInfo()
                            .addKeyValue("dialect", dialect.name())
                            .addKeyValue("circuit", "closed")
                            .log("database available again");
                default -> {}
            }
        });
        return breaker;
    }
}
