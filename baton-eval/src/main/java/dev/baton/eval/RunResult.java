package dev.baton.eval;

import java.math.BigDecimal;
import java.util.List;

/**
 * One run of one scenario (a scenario runs {@code --repeat} times, each as a new user).
 *
 * @param repetition 1 for the first run
 * @param latencyMs the conversation's turns' latencies added up
 * @param tokens input and output tokens of the whole conversation
 * @param conversationChecks what the scenario expects of the whole conversation (its cost)
 * @param failures one line per check that failed, for the report's summary
 */
public record RunResult(
        String scenario,
        int repetition,
        boolean passed,
        long latencyMs,
        long tokens,
        BigDecimal costUsd,
        List<TurnResult> turns,
        List<CheckResult> conversationChecks,
        List<String> failures) {

    public RunResult {
        turns = List.copyOf(turns);
        conversationChecks = List.copyOf(conversationChecks);
        failures = List.copyOf(failures);
    }
}
