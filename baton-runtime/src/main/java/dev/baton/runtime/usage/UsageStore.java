package dev.baton.runtime.usage;

import java.time.Instant;
import java.util.List;

/** Where the runtime reads what model calls cost: reports for administrators, and the spend budgets are checked on. */
public interface UsageStore {
    /** A report never returns more groups than this; narrow the period or group by less. */
    int MAX_GROUPS = 10_000;

    /** Nothing was ever spent: no budget is ever reached and reports are empty (a runtime without usage storage). */
    UsageStore NONE = new UsageStore() {
        @Override
        public List<UsageTotals> report(String tenantId, UsagePeriod period, List<UsageDimension> groupBy) {
            return List.of();
        }

        @Override
        public PeriodSpend userSpend(String tenantId, String userId, Instant dayStart, Instant monthStart) {
            return PeriodSpend.NONE;
        }

        @Override
        public PeriodSpend tenantSpend(String tenantId, Instant dayStart, Instant monthStart) {
            return PeriodSpend.NONE;
        }
    };

    /**
     * Tokens and cost of a tenant's model calls in a period, grouped by the given dimensions (none: one total row),
     * ordered by group; at most {@link #MAX_GROUPS} rows.
     */
    List<UsageTotals> report(String tenantId, UsagePeriod period, List<UsageDimension> groupBy);

    /**
     * What a user of a tenant spent since {@code dayStart} and since {@code monthStart}, both {@link SpendSlots slot}
     * starts (a budget's day and month in any time zone are). Its cost must not grow with the month's number of model
     * calls: budgets ask before every turn.
     */
    PeriodSpend userSpend(String tenantId, String userId, Instant dayStart, Instant monthStart);

    /** What a whole tenant spent since {@code dayStart} and since {@code monthStart}, both slot starts. */
    PeriodSpend tenantSpend(String tenantId, Instant dayStart, Instant monthStart);
}
