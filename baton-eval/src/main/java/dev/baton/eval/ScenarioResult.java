package dev.baton.eval;

import java.util.List;

/**
 * A scenario's runs summed up.
 *
 * @param passRate passed runs over runs, 0..1
 * @param failures the distinct failed checks over its runs ("turn 2: calls generateContent — tools called: none")
 */
public record ScenarioResult(
        String name, String category, int runs, int passedRuns, double passRate, List<String> failures) {
    public ScenarioResult {
        failures = List.copyOf(failures);
    }
}
