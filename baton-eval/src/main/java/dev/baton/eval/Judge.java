package dev.baton.eval;

/**
 * Says whether a turn's answer meets a rubric written in plain words: the LLM-as-judge of a suite's {@code rubric}
 * expectations. Off unless asked for ({@code baton eval --judge provider:model}); without a judge a rubric is
 * reported as skipped, never as passed.
 */
@FunctionalInterface
public interface Judge {

    Verdict judge(String rubric, TurnObservation turn);

    /** @param reason the judge's reason, in its words */
    record Verdict(boolean passed, String reason) {}
}
