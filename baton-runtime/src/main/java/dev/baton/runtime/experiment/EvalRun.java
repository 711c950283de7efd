package dev.baton.runtime.experiment;

import java.time.Instant;
import java.util.Objects;

/**
 * The result of an evaluation suite run against one arm's agent, attached to the experiment so its pass rate shows
 * next to the arm's live metrics and feeds the accuracy trigger.
 */
public record EvalRun(
        String experimentId,
        String arm,
        String suite,
        int scenarios,
        int passed,
        String recordedBy,
        Instant recordedAt) {
    public EvalRun {
        Objects.requireNonNull(experimentId, "experimentId");
        Objects.requireNonNull(arm, "arm");
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(recordedBy, "recordedBy");
        Objects.requireNonNull(recordedAt, "recordedAt");
        if (scenarios < 1) throw new IllegalArgumentException("scenarios must be >= 1");
        if (passed < 0 || passed > scenarios)
            throw new IllegalArgumentException("passed must be between 0 and scenarios");
    }

    /** Passed scenarios over all, 0 to 1. */
    public double passRate() {
        return (double) passed / scenarios;
    }
}
