package dev.baton.runtime.admission;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * One budget a turn must fit in: what the scope spent in the budget's period (the totals recorded with
 * {@code ai_usage}) against the budget. The turn is admitted while {@code spent} plus the scope's reservations is
 * below {@code budget}.
 *
 * @param scope the scope whose reservations count (a {@link ReservationRequest#scopes() scope} of the request)
 * @param which how the refusal names the budget, e.g. "your daily"
 * @param renews when the period ends and the budget is whole again
 * @param showAmounts whether the refusal may say how much was spent (not for a tenant's budget)
 */
public record BudgetCheck(
        String scope, BigDecimal budget, BigDecimal spent, String which, Instant renews, boolean showAmounts) {
    public BudgetCheck {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(spent, "spent");
        Objects.requireNonNull(which, "which");
        Objects.requireNonNull(renews, "renews");
    }
}
