package dev.baton.server.limits;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.providers.pricing.PriceTable;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ConfigException;
import dev.baton.store.jdbc.usage.JdbcUsageStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a message must pass before its turn runs (DESIGN §4 "rate-limit + budget check"): the caller's rate limits,
 * then the caller's and the tenant's budgets. Only message sends go through here.
 */
public final class TurnAdmission implements AutoCloseable {
    private final RateLimiter rates;
    private final BudgetGuard budgets;
    private final String description;
    private final Consumer<LimitExceeded> refusals;
    /** What this owns and closes besides the rate limiter: the shared budget reservations and the Redis client. */
    private final List<AutoCloseable> resources = new ArrayList<>();
    /** The configured Redis client, shared with whoever else coordinates instances; null without one. */
    private SharedRedis redis;

    private TurnAdmission(
            RateLimiter rates, BudgetGuard budgets, String description, Consumer<LimitExceeded> refusals) {
        this.rates = rates;
        this.budgets = budgets;
        this.description = description;
        this.refusals = Objects.requireNonNull(refusals, "refusals");
    }

    /**
     * Reads {@code rateLimits} and {@code budgets} from the configuration. Buckets and budget reservations live in
     * Redis (one client for both) when {@code rateLimits.redisUrl} or {@code BATON_REDIS_URL} is set, else in this
     * process.
     *
     * @param clock drives bucket refills and budget periods (tests move it instead of sleeping)
     * @throws ConfigException when a section is malformed
     */
    public static TurnAdmission from(BatonConfig config, PriceTable prices, JdbcUsageStore usage, Clock clock) {
        return from(config, prices, usage, clock, refused -> {});
    }

    /**
     * As {@link #from(BatonConfig, PriceTable, JdbcUsageStore, Clock)}, telling {@code refusals} of every message a
     * limit or budget turns away (for metrics) just before it is refused.
     */
    public static TurnAdmission from(
            BatonConfig config,
            PriceTable prices,
            JdbcUsageStore usage,
            Clock clock,
            Consumer<LimitExceeded> refusals) {
        RateLimitSettings rateSettings;
        BudgetSettings budgetSettings;
        try {
            rateSettings = RateLimitSettings.parse(config.section("rateLimits"), config.env());
            budgetSettings = BudgetSettings.parse(config.section("budgets"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        boolean budgetsOn = budgetSettings.limitsUsers() || budgetSettings.limitsTenants();
        // created whenever a Redis is configured: the server's turn locks and cancel signals use it too
        SharedRedis redis = rateSettings.redisUrl() != null ? SharedRedis.create(rateSettings.redisUrl()) : null;
        RateLimiter rates = null;
        RedisReservations reservations = null;
        try {
            if (rateSettings.enabled()) {
                BucketStore store = redis == null
                        ? BucketStore.local(clock)
                        : BucketStore.redis(redis, rateSettings.redisKeyPrefix(), clock);
                rates = new RateLimiter(rateSettings, store);
            }
            if (redis != null && budgetsOn)
                reservations = RedisReservations.connect(redis, budgetSettings.redisKeyPrefix(), clock);
        } catch (RuntimeException e) {
            if (rates != null) rates.close();
            if (redis != null) redis.close();
            throw e;
        }
        BudgetGuard guard = new BudgetGuard(
                budgetSettings, usage, new TurnCostCeiling(budgetSettings, prices), clock, reservations);
        String description = (rates == null
                        ? "rate limits off"
                        : "rate limits " + rateSettings.perUser().size() + " per user, "
                                + rateSettings.perTenant().size() + " per tenant, buckets "
                                + (rateSettings.redisUrl() == null ? "in process" : "in Redis"))
                + (guard.active()
                        ? ", budgets on, reservations " + (reservations == null ? "in process" : "in Redis")
                        : ", no budgets");
        TurnAdmission admission = new TurnAdmission(rates, guard.active() ? guard : null, description, refusals);
        if (reservations != null) admission.resources.add(reservations);
        if (redis != null) admission.resources.add(redis);
        admission.redis = redis;
        return admission;
    }

    /**
     * Takes one message from the caller's rate limits.
     *
     * @return the decision, whose headers the response should carry
     * @throws LimitExceeded {@code rate_limited} when a quota is used up
     */
    public RateDecision acquireRate(Principal caller) {
        if (rates == null) return RateDecision.UNLIMITED;
        RateDecision decision = rates.acquire(caller);
        if (!decision.allowed()) {
            Duration wait = decision.reset();
            LimitExceeded refused = new LimitExceeded(
                    LimitExceeded.RATE_LIMITED,
                    "too many messages: the " + decision.reported().name() + " limit of "
                            + decision.reported().quota() + " is used up; retry in " + RateDecision.seconds(wait)
                            + " s",
                    wait,
                    decision.headers());
            refusals.accept(refused);
            throw refused;
        }
        return decision;
    }

    /**
     * Reserves the turn's maximum cost against the caller's budgets; close the reservation when the turn is over.
     *
     * @param agent the agent that will answer (its models and limits bound the cost); null when unknown
     * @throws LimitExceeded {@code budget_exceeded} when a budget is used up
     */
    public BudgetReservation reserveBudget(Principal caller, AgentDefinition agent) {
        if (budgets == null) return BudgetReservation.NONE;
        try {
            return budgets.reserve(caller, agent);
        } catch (LimitExceeded refused) {
            refusals.accept(refused);
            throw refused;
        }
    }

    /**
     * The Redis client {@code rateLimits.redisUrl} / {@code BATON_REDIS_URL} configures, owned (and closed) by this
     * admission; empty when instances share nothing.
     */
    public Optional<SharedRedis> sharedRedis() {
        return Optional.ofNullable(redis);
    }

    /** One line for the startup log. */
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (rates != null) rates.close();
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close " + resource, e);
            }
        }
    }
}
