package dev.baton.runtime.experiment;

import java.math.BigDecimal;

/** Hears what experiments do, for metrics. Called on request and job threads: quick, thread-safe, never throwing. */
public interface ExperimentListener {
    ExperimentListener NONE = new ExperimentListener() {};

    /** A new session was routed to an arm (or {@link Routing#FALLBACK_ARM}). */
    default void routed(String experimentId, String arm) {}

    /**
     * A turn of a session in an experiment finished.
     *
     * @param toolCalls the tool calls it made
     * @param failedToolCalls of those, the ones that failed (failed, invalid arguments, timed out, denied)
     */
    default void turnFinished(
            String experimentId,
            String arm,
            String status,
            long nanos,
            BigDecimal costUsd,
            int toolCalls,
            int failedToolCalls) {}

    /** An eval run was attached to an arm. */
    default void evalRecorded(String experimentId, String arm, double passRate) {}

    /** A trigger fired and set the arm's weight to 0. */
    default void rolledBack(String experimentId, String arm, TriggerFired trigger) {}
}
