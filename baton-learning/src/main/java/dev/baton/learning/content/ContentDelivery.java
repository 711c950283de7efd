package dev.baton.learning.content;

/**
 * Hands a completed job's material to the conversation that asked for it. Called once per job, by the worker whose
 * completion was stored; whatever it throws is logged and the job stays completed (the material is still readable
 * over REST and in getUserProgress).
 */
@FunctionalInterface
public interface ContentDelivery {
    /** Delivers nothing: jobs are read over REST and in the agent's tools only. */
    ContentDelivery NONE = job -> {};

    void deliver(ContentJob job);
}
