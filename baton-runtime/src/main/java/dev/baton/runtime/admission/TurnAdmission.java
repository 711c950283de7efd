package dev.baton.runtime.admission;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.model.CostCalculator;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.usage.UsageStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a message must pass before its turn runs (DESIGN §4 "rate-limit + budget check"): the caller's rate limits,
 * then the caller's and the tenant's budgets. Only message sends go through here.
 */
public final class TurnAdmission implements AutoCloseable {
    private final RateLimiter rates;
    private final BudgetGuard budgets;
    private final String description;
    private final Consumer<Refusal> refusals;

    private TurnAdmission(RateLimiter rates, BudgetGuard budgets, String description, Consumer<Refusal> refusals) {
        this.rates = rates;
        this.budgets = budgets;
        this.description = description;
        this.refusals = Objects.requireNonNull(refusals, "refusals");
    }

    /**
     * Admission under the given limits.
     *
     * @param buckets where rate-limit buckets live ({@link BucketStore#local} for one instance); closed with this
     * @param sharedReservations where budget reservations live when instances share them; null keeps them in this
     *     process. Not closed by this: its owner closes it.
     * @param prices what a model call can cost at most, for the budget a turn reserves
     * @param clock drives bucket refills and budget periods (tests move it instead of sleeping)
     * @param refusals hears of every message a limit or budget turns away (metrics), just before it is refused
     */
    public static TurnAdmission create(
            RateLimitSettings rateSettings,
            BudgetSettings budgetSettings,
            BucketStore buckets,
            ReservationLedger sharedReservations,
            UsageStore usage,
            CostCalculator prices,
            Clock clock,
            Consumer<Refusal> refusals) {
        RateLimiter rates = rateSettings.enabled() ? new RateLimiter(rateSettings, buckets) : null;
        if (rates == null) buckets.close();
        BudgetGuard guard = new BudgetGuard(
                budgetSettings, usage, new TurnCostCeiling(budgetSettings, prices), clock, sharedReservations);
        String description = (rates == null
                        ? "rate limits off"
                        : "rate limits " + rateSettings.perUser().size() + " per user, "
                                + rateSettings.perTenant().size() + " per tenant, buckets " + buckets.describe())
                + (guard.active()
                        ? ", budgets on, reservations " + (sharedReservations == null ? "in process" : "shared")
                        : ", no budgets");
        return new TurnAdmission(rates, guard.active() ? guard : null, description, refusals);
    }

    /** No rate limits and no budgets: every message is admitted. */
    public static TurnAdmission unlimited() {
        return new TurnAdmission(null, null, "rate limits off, no budgets", refused -> {});
    }

    /**
     * Takes one message from the caller's rate limits.
     *
     * @return the decision, whose quota fields a front door may report
     * @throws RefusalException {@link Refusal.RateLimited} when a quota is used up
     */
    public RateDecision acquireRate(Principal caller) {
        if (rates == null) return RateDecision.UNLIMITED;
        RateDecision decision = rates.acquire(caller);
        if (!decision.allowed()) {
            Duration wait = decision.reset();
            Refusal refused = new Refusal.RateLimited(
                    "too many messages: the " + decision.reported().name() + " limit of "
                            + decision.reported().quota() + " is used up; retry in " + RateDecision.seconds(wait)
                            + " s",
                    wait,
                    decision.quotaFields());
            refusals.accept(refused);
            throw new RefusalException(refused);
        }
        return decision;
    }

    /**
     * Reserves the turn's maximum cost against the caller's budgets; close the reservation when the turn is over.
     *
     * @param agent the agent that will answer (its models and limits bound the cost); null when unknown
     * @throws RefusalException {@link Refusal.BudgetExceeded} when a budget is used up
     */
    public BudgetReservation reserveBudget(Principal caller, AgentDefinition agent) {
        if (budgets == null) return BudgetReservation.NONE;
        try {
            return budgets.reserve(caller, agent);
        } catch (RefusalException refused) {
            refusals.accept(refused.refusal());
            throw refused;
        }
    }

    /** One line for the startup log. */
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (rates != null) rates.close();
    }
}
