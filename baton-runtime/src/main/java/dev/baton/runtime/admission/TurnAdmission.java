package dev.baton.runtime.admission;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.CostCalculator;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.SessionLifecycle;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.usage.UsageStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a turn must pass before it runs (DESIGN §4 "rate-limit + budget check"), written once for every way a turn
 * starts (a message, a one-shot chat, a decision going on with a paused turn): a message first takes one from the
 * caller's rate limits ({@link #acquireRate}); then {@link #admit} checks the session (active, its agent configured,
 * its time left) and reserves the turn's maximum cost against the caller's and the tenant's budgets, and gives back
 * the {@link Admitted} turn that holds the reservation until it is closed.
 *
 * <pre>{@code
 * RateDecision rate = admission.acquireRate(caller);
 * try (TurnAdmission.Admitted admitted = admission.admit(caller, session, rate)) {
 *     ... run the turn with admitted.agent() ...
 * }
 * }</pre>
 */
public final class TurnAdmission implements AutoCloseable {
    private final RateLimiter rates;
    private final BudgetGuard budgets;
    private final Sessions sessions;
    private final String description;
    private final Consumer<Refusal> refusals;

    private TurnAdmission(
            RateLimiter rates, BudgetGuard budgets, Sessions sessions, String description, Consumer<Refusal> refusals) {
        this.rates = rates;
        this.budgets = budgets;
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.description = description;
        this.refusals = Objects.requireNonNull(refusals, "refusals");
    }

    /**
     * A turn that passed admission: what it runs with, and its hold on the budgets. Close it once the turn's actual
     * cost is stored (that releases the reservation); closing twice is harmless.
     *
     * @param rate what is left of the caller's rate limits ({@link RateDecision#UNLIMITED} for a turn that took none)
     * @param setup the session's agent under its own limits, and its assignment
     * @param budget the turn's reservation ({@link BudgetReservation#NONE} without budgets)
     */
    public record Admitted(RateDecision rate, SessionLifecycle.TurnSetup setup, BudgetReservation budget)
            implements AutoCloseable {
        public Admitted {
            Objects.requireNonNull(rate, "rate");
            Objects.requireNonNull(setup, "setup");
            Objects.requireNonNull(budget, "budget");
        }

        /** The agent that answers, under the session's limits. */
        public AgentDefinition agent() {
            return setup.agent();
        }

        @Override
        public void close() {
            budget.close();
        }
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
     * @param sessions checks the session a turn runs in
     */
    public static TurnAdmission create(
            RateLimitSettings rateSettings,
            BudgetSettings budgetSettings,
            BucketStore buckets,
            ReservationLedger sharedReservations,
            UsageStore usage,
            CostCalculator prices,
            Clock clock,
            Consumer<Refusal> refusals,
            Sessions sessions) {
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
        return new TurnAdmission(rates, guard.active() ? guard : null, sessions, description, refusals);
    }

    /** No rate limits and no budgets: every message to a session that may take a turn is admitted. */
    public static TurnAdmission unlimited(Sessions sessions) {
        return new TurnAdmission(null, null, sessions, "rate limits off, no budgets", refused -> {});
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
     * Only for a turn whose session does not exist yet: {@link #admit} reserves for the others.
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

    /**
     * Admits a turn in the caller's {@code session}: the session must take a turn ({@link Sessions#beforeTurn}), then
     * the turn's maximum cost is reserved against the caller's budgets for the session's agent under its own limits.
     *
     * @param rate what the caller's message took from their rate limits ({@link #acquireRate});
     *     {@link RateDecision#UNLIMITED} for a turn that takes nothing from them
     * @throws RefusalException {@link Refusal.SessionCompleted}, {@link Refusal.AgentUnavailable} (see
     *     {@link Sessions#beforeTurn}), then {@link Refusal.BudgetExceeded}
     */
    public Admitted admit(Principal caller, Session session, RateDecision rate) {
        return admit(caller, session, rate, null, setup -> {});
    }

    /**
     * {@link #admit(Principal, Session, RateDecision)}, with a check of the turn's own between the session's and the
     * budgets' (a decision's edited arguments, checked against the agent's tools), or with the budget reserved already.
     *
     * @param reserved the turn's reservation when it was made before the session existed (a one-shot chat's new
     *     session: a refused message then leaves no empty conversation behind); closed with the admitted turn. Null
     *     to reserve here.
     * @param check throws the turn's own refusal; runs after the session's checks and before the reservation
     */
    public Admitted admit(
            Principal caller,
            Session session,
            RateDecision rate,
            BudgetReservation reserved,
            Consumer<SessionLifecycle.TurnSetup> check) {
        // the session's own limits (resolved when it started) and assignment; refused once its time ran out
        SessionLifecycle.TurnSetup setup = sessions.beforeTurn(caller, session);
        check.accept(setup);
        // reserved before the model is called, released once the turn's actual cost is in the usage store; the
        // session's own limits bound both the turn's cost and how long its reservation outlives a dead instance
        BudgetReservation budget = reserved != null ? reserved : reserveBudget(caller, setup.agent());
        return new Admitted(rate, setup, budget);
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
