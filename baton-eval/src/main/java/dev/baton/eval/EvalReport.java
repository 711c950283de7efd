package dev.baton.eval;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What an eval run came to: a plain record that serialises to JSON as it is (the {@code --report out.json} file), so
 * that other parts of Baton (an experiment's arm) can keep it.
 *
 * @param model the model the agent used ("simulator:default" on the bundled simulator)
 * @param simulated the bundled LLM simulator answered: the run proves the harness and the runtime, not a model's skill
 * @param passRate passed runs over all runs, 0..1
 * @param thresholdMet {@code passRate >= threshold}
 * @param latency the latency of every turn of every run
 * @param perConversation tokens and cost of a run's whole conversation
 * @param rubricsSkipped rubric checks not judged because no judge model was given
 */
public record EvalReport(
        String suite,
        String source,
        String agent,
        String model,
        boolean simulated,
        String note,
        Instant startedAt,
        long durationMs,
        int repeat,
        int parallel,
        double threshold,
        int scenarioCount,
        int runCount,
        int passedRuns,
        double passRate,
        boolean thresholdMet,
        Latency latency,
        PerConversation perConversation,
        int rubricsSkipped,
        List<ScenarioResult> scenarios,
        List<RunResult> runs) {

    /** What a report says when the bundled simulator answered. */
    public static final String SIMULATOR_NOTE = "Answers came from the bundled LLM SIMULATOR, whose scripts match the"
            + " user's words: this run proves the harness and Baton's runtime, not a model's skill. Set a provider key"
            + " (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...) and --model provider:model to measure a real model.";

    public EvalReport {
        scenarios = List.copyOf(scenarios);
        runs = List.copyOf(runs);
        note = note == null ? "" : note;
    }

    /** The figures an experiment's arm keeps of this run, without the runs themselves. */
    public Summary summary() {
        return new Summary(
                suite,
                agent,
                model,
                simulated,
                startedAt,
                runCount,
                passRate,
                thresholdMet,
                latency.p50Ms(),
                latency.p95Ms(),
                perConversation.meanTokens(),
                perConversation.meanCostUsd());
    }

    /**
     * An eval run in a few figures: what was evaluated, its pass rate, turn latency and cost per conversation.
     *
     * @param simulated the bundled simulator answered: the figures prove the harness, not a model
     */
    public record Summary(
            String suite,
            String agent,
            String model,
            boolean simulated,
            Instant startedAt,
            int runCount,
            double passRate,
            boolean thresholdMet,
            long p50LatencyMs,
            long p95LatencyMs,
            double meanTokensPerConversation,
            BigDecimal meanCostPerConversationUsd) {}

    /** Turn latency in milliseconds over every turn of every run (nearest-rank percentiles). */
    public record Latency(int turns, long p50Ms, long p95Ms, long maxMs) {}

    /** Tokens (input and output) and cost of one run's conversation: mean and worst, and the cost of the whole run. */
    public record PerConversation(
            double meanTokens,
            long maxTokens,
            BigDecimal meanCostUsd,
            BigDecimal maxCostUsd,
            BigDecimal totalCostUsd) {}
}
