package dev.baton.runtime.experiment;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * When a treatment arm is rolled back (its weight set to 0), judged on a rolling window and only once the arm has
 * at least {@code minSample} turns from at least {@code minUsers} distinct users in it (so that no one user — with
 * failing or slow turns of their own making — decides for everyone): the learning design's "latency p95 > 1s, cost > $0.02 per conversation,
 * accuracy < 90%, error rate > 5%". Accuracy is the pass rate of the arm's latest eval run, judged whenever one
 * exists (an eval run is its own sample).
 *
 * @param window how far back the metrics reach
 * @param minSample turns an arm needs in the window before latency, cost and error rate are judged
 * @param maxP95Latency the arm is rolled back above this p95 turn latency
 * @param maxCostPerConversation above this cost (USD) per conversation
 * @param minEvalPassRate below this eval pass rate (0 to 1; 0 turns the check off)
 * @param maxErrorRate above this share of failed turns (0 to 1; 1 turns the check off; cancelled turns are not failed)
 * @param minUsers distinct users an arm needs in the window before latency, cost and error rate are judged
 */
public record RollbackTriggers(
        Duration window,
        int minSample,
        Duration maxP95Latency,
        BigDecimal maxCostPerConversation,
        double minEvalPassRate,
        double maxErrorRate,
        int minUsers) {

    /** Distinct users an arm needs by default before it is judged. */
    public static final int DEFAULT_MIN_USERS = 5;

    public static final RollbackTriggers DEFAULTS = new RollbackTriggers(
            Duration.ofHours(1), 20, Duration.ofSeconds(1), new BigDecimal("0.02"), 0.90, 0.05, DEFAULT_MIN_USERS);

    /** Triggers judged once an arm has {@code minSample} turns, however few users they come from. */
    public RollbackTriggers(
            Duration window,
            int minSample,
            Duration maxP95Latency,
            BigDecimal maxCostPerConversation,
            double minEvalPassRate,
            double maxErrorRate) {
        this(window, minSample, maxP95Latency, maxCostPerConversation, minEvalPassRate, maxErrorRate, 1);
    }

    public RollbackTriggers {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(maxP95Latency, "maxP95Latency");
        Objects.requireNonNull(maxCostPerConversation, "maxCostPerConversation");
        if (window.isNegative() || window.isZero()) throw new IllegalArgumentException("rollback.window must be > 0");
        if (minSample < 1) throw new IllegalArgumentException("rollback.minSample must be >= 1");
        if (maxP95Latency.isNegative() || maxP95Latency.isZero())
            throw new IllegalArgumentException("rollback.maxP95Latency must be > 0");
        if (maxCostPerConversation.signum() < 0)
            throw new IllegalArgumentException("rollback.maxCostPerConversation must be >= 0");
        if (minEvalPassRate < 0 || minEvalPassRate > 1)
            throw new IllegalArgumentException("rollback.minEvalPassRate must be between 0 and 1");
        if (maxErrorRate < 0 || maxErrorRate > 1)
            throw new IllegalArgumentException("rollback.maxErrorRate must be between 0 and 1");
        if (minUsers < 1) throw new IllegalArgumentException("rollback.minUsers must be >= 1");
    }

    /**
     * The triggers {@code metrics} breaks, in the order above; empty when it breaks none, or has too few turns or
     * users for latency, cost and errors to be judged (an eval run is judged whatever the traffic).
     */
    public List<TriggerFired> firing(ArmMetrics metrics) {
        List<TriggerFired> fired = new ArrayList<>();
        if (metrics.turns() >= minSample && metrics.users() >= minUsers) {
            if (metrics.p95LatencyMs() > maxP95Latency.toMillis())
                fired.add(new TriggerFired(
                        "p95_latency", metrics.p95LatencyMs() + "ms", maxP95Latency.toMillis() + "ms"));
            BigDecimal perConversation = metrics.costPerConversation();
            if (metrics.conversations() > 0 && perConversation.compareTo(maxCostPerConversation) > 0)
                fired.add(new TriggerFired(
                        "cost_per_conversation",
                        perConversation.stripTrailingZeros().toPlainString(),
                        maxCostPerConversation.toPlainString()));
            if (metrics.errorRate() > maxErrorRate)
                fired.add(new TriggerFired("error_rate", rate(metrics.errorRate()), rate(maxErrorRate)));
        }
        EvalRun eval = metrics.latestEval();
        if (eval != null && eval.passRate() < minEvalPassRate)
            fired.add(new TriggerFired("eval_pass_rate", rate(eval.passRate()), rate(minEvalPassRate)));
        return fired;
    }

    private static String rate(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f", value);
    }
}
