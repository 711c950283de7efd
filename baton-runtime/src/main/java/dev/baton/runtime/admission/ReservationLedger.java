package dev.baton.runtime.admission;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the reservations of running turns live: in this process (one instance) or in Redis (every instance sees
 * every instance's reservations). Either way admission is atomic: two turns never both take the same headroom.
 */
public interface ReservationLedger extends AutoCloseable {

    /**
     * Admits {@code request} when, for each check, the check's {@code spent} plus the reservations held in its scope
     * is below its budget, and then holds the request's amount in each of its scopes.
     *
     * @param checks reads what was spent, in order of the checks to apply (the first that fails is reported); the
     *     ledger calls it at the point where its consistency model needs the read, possibly more than once
     */
    Admission admit(ReservationRequest request, Supplier<List<BudgetCheck>> checks);

    /** Releases the request's hold (the turn's actual cost is in {@code ai_usage} by now); harmless when gone. */
    void release(ReservationRequest request);

    @Override
    void close();

    /** The outcome of {@link #admit}. */
    sealed interface Admission {}

    /** The amount is now held. */
    record Admitted() implements Admission {}

    /**
     * Nothing is held: {@code check} failed, with {@code used} (spent plus reservations) at or above its budget.
     */
    record Refused(BudgetCheck check, BigDecimal used) implements Admission {}

    Admitted ADMITTED = new Admitted();

    /**
     * The shared ledger cannot be reached; the caller falls back to reservations in its own process (budgets bill,
     * so they keep being checked) and the shared ones expire by themselves.
     */
    final class Unavailable extends RuntimeException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
