package dev.baton.runtime.admission;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Reservations in a map of this process: what one instance counts. The spent read and the admission happen under one
 * lock per tenant, so two requests of a tenant never both see the same headroom.
 */
final class LocalReservations implements ReservationLedger {
    private final Map<String, BigDecimal> held = new ConcurrentHashMap<>();
    private final Map<String, ReentrantLock> tenantLocks = new ConcurrentHashMap<>();

    @Override
    public Admission admit(ReservationRequest request, Supplier<List<BudgetCheck>> checks) {
        ReentrantLock lock = tenantLocks.computeIfAbsent(request.tenant(), t -> new ReentrantLock());
        lock.lock();
        try {
            for (BudgetCheck check : checks.get()) {
                BigDecimal used = check.spent().add(held.getOrDefault(check.scope(), BigDecimal.ZERO));
                if (used.compareTo(check.budget()) >= 0) return new Refused(check, used);
            }
            for (String scope : request.scopes()) held.merge(scope, request.amount(), BigDecimal::add);
            return ADMITTED;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void release(ReservationRequest request) {
        for (String scope : request.scopes()) {
            held.computeIfPresent(scope, (k, v) -> {
                BigDecimal left = v.subtract(request.amount());
                return left.signum() <= 0 ? null : left;
            });
        }
    }

    @Override
    public void close() {
        held.clear();
    }
}
