package dev.baton.runtime.experiment;

import java.math.BigDecimal;

/** Hears what experiments do, for metrics. Called on request and job threads: quick, thread-safe, never throwing. */
public interface ExperimentListener {
    ExperimentListener NONE = new ExperimentListener() {};

    /** A new session was routed to an arm (or {@link Routing#FALLBACK_ARM}). */
    default void routed(String experimentId, String arm) {}

    /** A turn of a session in an experiment finished. */
    default void turnFinished(String experimentId, String arm, String status, long nanos, BigDecimal costUsd) {}

    /** A trigger fired and set the arm's weight to 0. */
    default void rolledBack(String experimentId, String arm, TriggerFired trigger) {}
}
