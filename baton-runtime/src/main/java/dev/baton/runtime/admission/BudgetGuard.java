package dev.baton.runtime.admission;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.usage.PeriodSpend;
import dev.baton.runtime.usage.SpendSlots;
import dev.baton.runtime.usage.UsageStore;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the caller's daily and monthly budgets before a turn and reserves the turn's maximum cost against them.
 *
 * <p>Consistency model: what counts against a budget is what was recorded as spent in the period (one SQL read per
 * scope per check, never cached: the running totals per 15-minute slot that are written with each {@code ai_usage}
 * row, see {@link SpendSlots}) plus the maximum cost of every running turn of the same user or
 * tenant, held in a {@link ReservationLedger}. A turn is admitted while that total is below the budget, atomically, so
 * concurrent turns can together pass the budget by at most one turn's maximum cost. A finished turn's cost is
 * committed to {@code ai_usage} and its totals before its hold is released, so for a moment it counts twice
 * (conservative), never zero times.
 *
 * <p>With one instance the holds live in this process ({@link LocalReservations}). With a Redis configured they live
 * there ({@link RedisReservations}), so the bound holds across instances; see that class for how the SQL read and
 * the Redis admission, which are not one transaction, still never count a finished turn zero times. A hold its
 * instance never releases (a crash) stops counting after the turn's request timeout plus {@code reservationMargin}.
 * If Redis fails at run time, holds fall back to this process (each instance may then let one more turn through)
 * and an error is logged: budgets bill, so they keep being checked. Whatever the mode, a turn whose cost exceeds its
 * reserved maximum (a ceiling set too low) overshoots by the difference.
 */
public final class BudgetGuard {
    private static final Logger log = LoggerFactory.getLogger(BudgetGuard.class);
    private static final long LOG_FAILURE_EVERY_NANOS = Duration.ofMinutes(1).toNanos();
    /** The time to live of a turn that has no request timeout. */
    private static final Duration UNBOUNDED_TURN = Duration.ofMinutes(10);

    private final BudgetSettings settings;
    private final UsageStore usage;
    private final TurnCostCeiling ceiling;
    private final Clock clock;
    private final ReservationLedger ledger;
    private final LocalReservations fallback = new LocalReservations();
    private final AtomicLong lastFailureLog = new AtomicLong(System.nanoTime() - LOG_FAILURE_EVERY_NANOS);

    /** @param shared the reservations every instance sees; null to keep them in this process */
    BudgetGuard(
            BudgetSettings settings, UsageStore usage, TurnCostCeiling ceiling, Clock clock, ReservationLedger shared) {
        this.settings = settings;
        this.usage = usage;
        this.ceiling = ceiling;
        this.clock = clock;
        this.ledger = shared != null ? shared : fallback;
    }

    boolean active() {
        return settings.limitsUsers() || settings.limitsTenants();
    }

    /**
     * Reserves the turn's maximum cost for {@code agent}.
     *
     * @throws RefusalException {@link Refusal.BudgetExceeded} when a budget of the caller or the caller's tenant is used up
     */
    BudgetReservation reserve(Principal caller, AgentDefinition agent) {
        if (!active()) return BudgetReservation.NONE;
        String tenant = caller.tenantId();
        String userScope = "{" + tenant + "}:user:" + caller.userId();
        String tenantScope = "{" + tenant + "}:tenant";
        List<String> scopes = new ArrayList<>();
        if (settings.limitsUsers()) scopes.add(userScope);
        if (settings.limitsTenants()) scopes.add(tenantScope);
        ReservationRequest request = new ReservationRequest(
                UUID.randomUUID().toString(), tenant, scopes, ceiling.of(agent), timeToLive(agent));
        Supplier<List<BudgetCheck>> checks = () -> checks(caller, userScope, tenantScope);
        ReservationLedger used = ledger;
        ReservationLedger.Admission admission;
        try {
            admission = ledger.admit(request, checks);
        } catch (ReservationLedger.Unavailable e) {
            logFailure("checking", e);
            used = fallback;
            admission = fallback.admit(request, checks);
        }
        return switch (admission) {
            case ReservationLedger.Admitted a -> new Hold(used, request);
            case ReservationLedger.Refused r -> throw refusal(r);
        };
    }

    /** The checks in the order they are reported: the user's day and month, then the tenant's. */
    private List<BudgetCheck> checks(Principal caller, String userScope, String tenantScope) {
        Periods periods = Periods.at(clock.instant(), settings);
        List<BudgetCheck> checks = new ArrayList<>(4);
        String tenant = caller.tenantId();
        if (settings.limitsUsers()) {
            PeriodSpend spent = usage.userSpend(tenant, caller.userId(), periods.dayStart(), periods.monthStart());
            add(checks, userScope, settings.userDailyUsd(), spent.today(), "your daily", periods.nextDay(), true);
            add(
                    checks,
                    userScope,
                    settings.userMonthlyUsd(),
                    spent.thisMonth(),
                    "your monthly",
                    periods.nextMonth(),
                    true);
        }
        if (settings.limitsTenants()) {
            PeriodSpend spent = usage.tenantSpend(tenant, periods.dayStart(), periods.monthStart());
            add(
                    checks,
                    tenantScope,
                    settings.tenantDailyUsd(),
                    spent.today(),
                    "your organisation's daily",
                    periods.nextDay(),
                    false);
            add(
                    checks,
                    tenantScope,
                    settings.tenantMonthlyUsd(),
                    spent.thisMonth(),
                    "your organisation's monthly",
                    periods.nextMonth(),
                    false);
        }
        return checks;
    }

    private static void add(
            List<BudgetCheck> checks,
            String scope,
            BigDecimal budget,
            BigDecimal spent,
            String which,
            Instant renews,
            boolean showAmounts) {
        if (budget != null) checks.add(new BudgetCheck(scope, budget, spent, which, renews, showAmounts));
    }

    private RefusalException refusal(ReservationLedger.Refused refused) {
        BudgetCheck check = refused.check();
        Instant now = clock.instant();
        String message = check.which() + " budget of " + check.budget().toPlainString() + " USD is used up"
                + (check.showAmounts()
                        ? " (" + refused.used().stripTrailingZeros().toPlainString() + " USD spent or in progress)"
                        : "")
                + "; it renews at " + check.renews();
        return new RefusalException(new Refusal.BudgetExceeded(message, Duration.between(now, check.renews())));
    }

    /** How long a reservation counts if its instance never releases it: past the turn's own deadline. */
    private Duration timeToLive(AgentDefinition agent) {
        Duration turn = agent == null
                ? TurnLimits.DEFAULTS.requestTimeout()
                : agent.limits().requestTimeout();
        if (turn == null) turn = UNBOUNDED_TURN;
        return turn.plus(settings.reservationMargin()).plusSeconds(1);
    }

    private void logFailure(String doing, RuntimeException e) {
        long now = System.nanoTime();
        long last = lastFailureLog.get();
        if (now - last >= LOG_FAILURE_EVERY_NANOS && lastFailureLog.compareAndSet(last, now)) {
            log.error(
                    "budget reservation store failed {}; holding reservations in this process until it recovers: {}",
                    doing,
                    e.toString());
        }
    }

    private final class Hold implements BudgetReservation {
        private final ReservationLedger ledger;
        private final ReservationRequest request;
        private final AtomicBoolean released = new AtomicBoolean();

        Hold(ReservationLedger ledger, ReservationRequest request) {
            this.ledger = ledger;
            this.request = request;
        }

        @Override
        public BigDecimal amountUsd() {
            return request.amount();
        }

        @Override
        public void close() {
            if (!released.compareAndSet(false, true)) return;
            try {
                ledger.release(request);
            } catch (ReservationLedger.Unavailable e) {
                // the reservation expires on its own after its time to live
                logFailure("releasing", e);
            }
        }
    }

    /**
     * Where the current day and month began and when the next ones begin, in the budgets' time zone. The starts are
     * slot starts (spending is totalled per slot): with every offset in use today they are already; a day that began
     * inside a slot (a historical local mean time) would count that whole slot, more rather than less.
     */
    private record Periods(Instant dayStart, Instant monthStart, Instant nextDay, Instant nextMonth) {
        static Periods at(Instant now, BudgetSettings settings) {
            LocalDate today = ZonedDateTime.ofInstant(now, settings.timeZone()).toLocalDate();
            LocalDate firstOfMonth = today.withDayOfMonth(1);
            return new Periods(
                    SpendSlots.startOf(today.atStartOfDay(settings.timeZone()).toInstant()),
                    SpendSlots.startOf(
                            firstOfMonth.atStartOfDay(settings.timeZone()).toInstant()),
                    today.plusDays(1).atStartOfDay(settings.timeZone()).toInstant(),
                    firstOfMonth.plusMonths(1).atStartOfDay(settings.timeZone()).toInstant());
        }
    }
}
