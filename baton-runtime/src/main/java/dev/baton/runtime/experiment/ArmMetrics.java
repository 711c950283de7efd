package dev.baton.runtime.experiment;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What one arm did over a window, from the stored turns, usage rows and tool calls of its sessions.
 *
 * @param turns turns finished in the window
 * @param failedTurns of those, the ones that ended in an error (a refusal before the turn ran is not a turn; a turn its
 *     user cancelled is not an error, see {@link #NOT_ERRORS})
 * @param users the distinct users (tenant and user) whose turns those are
 * @param p50LatencyMs median turn latency; 0 without turns
 * @param p95LatencyMs 95th percentile turn latency; 0 without turns
 * @param conversations sessions started on the arm in the window
 * @param costUsd what the model calls of those sessions cost
 * @param toolCalls tool calls made in the window
 * @param failedToolCalls of those, the ones that did not succeed (failed, timed out, invalid arguments, denied)
 * @param latestEval the arm's latest eval run; null when none was recorded
 */
public record ArmMetrics(
        String arm,
        long turns,
        long failedTurns,
        long users,
        long p50LatencyMs,
        long p95LatencyMs,
        long conversations,
        BigDecimal costUsd,
        long toolCalls,
        long failedToolCalls,
        EvalRun latestEval) {

    /**
     * The turn statuses that are not errors: answered, paused for approval, and cancelled (a user stopping their own
     * turn says nothing about the arm — counted as an error, one user could roll an arm back for everyone).
     */
    public static final java.util.Set<String> NOT_ERRORS = java.util.Set.of("ok", "awaiting_approval", "cancelled");

    public ArmMetrics {
        Objects.requireNonNull(arm, "arm");
        Objects.requireNonNull(costUsd, "costUsd");
    }

    /** An arm with nothing recorded yet. */
    public static ArmMetrics empty(String arm) {
        return new ArmMetrics(arm, 0, 0, 0, 0, 0, 0, BigDecimal.ZERO, 0, 0, null);
    }

    /** Failed turns over turns, 0 to 1; 0 without turns. */
    public double errorRate() {
        return turns == 0 ? 0 : (double) failedTurns / turns;
    }

    /** Failed tool calls over tool calls, 0 to 1; 0 without tool calls. */
    public double toolErrorRate() {
        return toolCalls == 0 ? 0 : (double) failedToolCalls / toolCalls;
    }

    /** Cost over conversations; zero without conversations. */
    public BigDecimal costPerConversation() {
        return conversations == 0
                ? BigDecimal.ZERO
                : costUsd.divide(BigDecimal.valueOf(conversations), 6, RoundingMode.HALF_EVEN);
    }

    public ArmMetrics withLatestEval(EvalRun run) {
        return new ArmMetrics(
                arm,
                turns,
                failedTurns,
                users,
                p50LatencyMs,
                p95LatencyMs,
                conversations,
                costUsd,
                toolCalls,
                failedToolCalls,
                run);
    }
}
