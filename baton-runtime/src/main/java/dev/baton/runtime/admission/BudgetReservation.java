package dev.baton.runtime.admission;

import java.math.BigDecimal;

/**
 * A turn's hold on its budgets: the turn's maximum cost, counted as spent while the turn runs. Closing it releases
 * the hold; by then the turn's actual cost is in {@code ai_usage}, where the next check reads it. Closing twice is
 * harmless.
 */
public interface BudgetReservation extends AutoCloseable {
    /** A reservation of nothing (no budgets configured). */
    BudgetReservation NONE = new BudgetReservation() {
        @Override
        public BigDecimal amountUsd() {
            return BigDecimal.ZERO;
        }

        @Override
        public void close() {}
    };

    BigDecimal amountUsd();

    @Override
    void close();
}
