package dev.baton.server.limits;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.store.jdbc.usage.JdbcUsageStore;
import dev.baton.store.jdbc.usage.PeriodSpend;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Checks the caller's daily and monthly budgets before a turn and reserves the turn's maximum cost against them.
 *
 * <p>Consistency model: what counts against a budget is what {@code ai_usage} says was spent in the period (one SQL
 * sum per scope per check) plus the maximum cost of every turn this instance is running for the same user or tenant
 * (held in memory). A turn is admitted while that total is below the budget, so concurrent turns can together pass
 * the budget by at most one turn's maximum cost. Check and reservation happen under one lock per tenant, so two
 * requests never both see the same headroom. A finished turn's cost is committed to {@code ai_usage} before its hold
 * is released, so for a moment it counts twice (conservative), never zero times. Holds are per instance: with
 * several instances each may let one more turn through, and a turn whose cost exceeds its reserved maximum (a
 * ceiling set too low) overshoots by the difference.
 */
public final class BudgetGuard {
    private final BudgetSettings settings;
    private final JdbcUsageStore usage;
    private final TurnCostCeiling ceiling;
    private final Clock clock;
    private final Map<String, BigDecimal> held = new ConcurrentHashMap<>();
    private final Map<String, ReentrantLock> tenantLocks = new ConcurrentHashMap<>();

    BudgetGuard(BudgetSettings settings, JdbcUsageStore usage, TurnCostCeiling ceiling, Clock clock) {
        this.settings = settings;
        this.usage = usage;
        this.ceiling = ceiling;
        this.clock = clock;
    }

    boolean active() {
        return settings.limitsUsers() || settings.limitsTenants();
    }

    /**
     * Reserves the turn's maximum cost for {@code agent}.
     *
     * @throws LimitExceeded {@code budget_exceeded} when a budget of the caller or the caller's tenant is used up
     */
    BudgetReservation reserve(Principal caller, AgentDefinition agent) {
        if (!active()) return BudgetReservation.NONE;
        BigDecimal amount = ceiling.of(agent);
        String tenant = caller.tenantId();
        String userKey = "user:" + tenant + ":" + caller.userId();
        String tenantKey = "tenant:" + tenant;
        ReentrantLock lock = tenantLocks.computeIfAbsent(tenant, t -> new ReentrantLock());
        lock.lock();
        try {
            Periods periods = Periods.at(clock.instant(), settings);
            if (settings.limitsUsers()) {
                PeriodSpend spent = usage.userSpend(tenant, caller.userId(), periods.dayStart(), periods.monthStart());
                BigDecimal inFlight = held.getOrDefault(userKey, BigDecimal.ZERO);
                check(spent.today().add(inFlight), settings.userDailyUsd(), "your daily", periods.nextDay(), true);
                check(
                        spent.thisMonth().add(inFlight),
                        settings.userMonthlyUsd(),
                        "your monthly",
                        periods.nextMonth(),
                        true);
            }
            if (settings.limitsTenants()) {
                PeriodSpend spent = usage.tenantSpend(tenant, periods.dayStart(), periods.monthStart());
                BigDecimal inFlight = held.getOrDefault(tenantKey, BigDecimal.ZERO);
                check(
                        spent.today().add(inFlight),
                        settings.tenantDailyUsd(),
                        "your organisation's daily",
                        periods.nextDay(),
                        false);
                check(
                        spent.thisMonth().add(inFlight),
                        settings.tenantMonthlyUsd(),
                        "your organisation's monthly",
                        periods.nextMonth(),
                        false);
            }
            held.merge(userKey, amount, BigDecimal::add);
            held.merge(tenantKey, amount, BigDecimal::add);
        } finally {
            lock.unlock();
        }
        return new Hold(userKey, tenantKey, amount);
    }

    private void check(BigDecimal used, BigDecimal budget, String which, Instant renews, boolean showAmounts) {
        if (budget == null || used.compareTo(budget) < 0) return;
        Instant now = clock.instant();
        String message = which + " budget of " + budget.toPlainString() + " USD is used up"
                + (showAmounts ? " (" + used.stripTrailingZeros().toPlainString() + " USD spent or in progress)" : "")
                + "; it renews at " + renews;
        throw new LimitExceeded(LimitExceeded.BUDGET_EXCEEDED, message, Duration.between(now, renews), Map.of());
    }

    private void release(String key, BigDecimal amount) {
        held.computeIfPresent(key, (k, v) -> {
            BigDecimal left = v.subtract(amount);
            return left.signum() <= 0 ? null : left;
        });
    }

    private final class Hold implements BudgetReservation {
        private final String userKey;
        private final String tenantKey;
        private final BigDecimal amount;
        private final AtomicBoolean released = new AtomicBoolean();

        Hold(String userKey, String tenantKey, BigDecimal amount) {
            this.userKey = userKey;
            this.tenantKey = tenantKey;
            this.amount = amount;
        }

        @Override
        public BigDecimal amountUsd() {
            return amount;
        }

        @Override
        public void close() {
            if (!released.compareAndSet(false, true)) return;
            release(userKey, amount);
            release(tenantKey, amount);
        }
    }

    /** Where the current day and month began and when the next ones begin, in the budgets' time zone. */
    private record Periods(Instant dayStart, Instant monthStart, Instant nextDay, Instant nextMonth) {
        static Periods at(Instant now, BudgetSettings settings) {
            LocalDate today = ZonedDateTime.ofInstant(now, settings.timeZone()).toLocalDate();
            LocalDate firstOfMonth = today.withDayOfMonth(1);
            return new Periods(
                    today.atStartOfDay(settings.timeZone()).toInstant(),
                    firstOfMonth.atStartOfDay(settings.timeZone()).toInstant(),
                    today.plusDays(1).atStartOfDay(settings.timeZone()).toInstant(),
                    firstOfMonth.plusMonths(1).atStartOfDay(settings.timeZone()).toInstant());
        }
    }
}
