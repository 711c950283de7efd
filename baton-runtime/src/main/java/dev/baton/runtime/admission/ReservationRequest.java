package dev.baton.runtime.admission;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One turn's reservation: {@code amount} USD held in every one of {@code scopes} until released or, if its instance
 * never releases it, for {@code ttl}.
 *
 * @param id unique per reservation; what releasing it names
 * @param tenant the caller's tenant (every scope lies within it)
 * @param scopes the budget scopes the amount counts against, e.g. {@code {t1}:user:alice} and {@code {t1}:tenant}
 */
public record ReservationRequest(String id, String tenant, List<String> scopes, BigDecimal amount, Duration ttl) {
    public ReservationRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenant, "tenant");
        scopes = List.copyOf(scopes);
        if (scopes.isEmpty()) throw new IllegalArgumentException("a reservation needs a scope");
        if (amount.signum() < 0) throw new IllegalArgumentException("amount must not be negative");
        if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be positive");
    }
}
