package dev.baton.eval;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Sums runs up into an {@link EvalReport}: pass rates per scenario and overall, latency percentiles, cost. */
final class ReportSummary {

    private ReportSummary() {}

    static EvalReport of(
            EvalSuite suite,
            EvalRunner.Options options,
            Instant startedAt,
            long durationMs,
            List<RunResult> runs,
            int rubricsSkipped) {
        Map<String, List<RunResult>> byScenario = new LinkedHashMap<>();
        suite.scenarios().forEach(s -> byScenario.put(s.name(), new ArrayList<>()));
        runs.forEach(r -> byScenario.get(r.scenario()).add(r));
        List<ScenarioResult> scenarios = new ArrayList<>();
        for (Scenario scenario : suite.scenarios()) {
            List<RunResult> own = byScenario.get(scenario.name());
            int passed = (int) own.stream().filter(RunResult::passed).count();
            Set<String> failures = new LinkedHashSet<>();
            own.forEach(r -> failures.addAll(r.failures()));
            scenarios.add(new ScenarioResult(
                    scenario.name(),
                    scenario.category(),
                    own.size(),
                    passed,
                    rate(passed, own.size()),
                    List.copyOf(failures)));
        }
        int passedRuns = (int) runs.stream().filter(RunResult::passed).count();
        double passRate = rate(passedRuns, runs.size());
        return new EvalReport(
                suite.name(),
                suite.source(),
                suite.agent(),
                options.model(),
                options.simulated(),
                options.simulated() ? EvalReport.SIMULATOR_NOTE : "",
                startedAt,
                durationMs,
                options.repeat(),
                options.parallel(),
                options.threshold(),
                suite.scenarios().size(),
                runs.size(),
                passedRuns,
                passRate,
                passRate >= options.threshold(),
                latency(runs),
                perConversation(runs),
                rubricsSkipped,
                scenarios,
                runs);
    }

    private static double rate(int passed, int of) {
        return of == 0 ? 0 : (double) passed / of;
    }

    static EvalReport.Latency latency(List<RunResult> runs) {
        long[] sorted = runs.stream()
                .flatMap(r -> r.turns().stream())
                .mapToLong(TurnResult::latencyMs)
                .sorted()
                .toArray();
        if (sorted.length == 0) return new EvalReport.Latency(0, 0, 0, 0);
        return new EvalReport.Latency(
                sorted.length, percentile(sorted, 50), percentile(sorted, 95), sorted[sorted.length - 1]);
    }

    /** The nearest-rank percentile of ascending values. */
    static long percentile(long[] ascending, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * ascending.length);
        return ascending[Math.max(0, rank - 1)];
    }

    private static EvalReport.PerConversation perConversation(List<RunResult> runs) {
        if (runs.isEmpty())
            return new EvalReport.PerConversation(0, 0, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);
        BigDecimal total = runs.stream().map(RunResult::costUsd).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal max = runs.stream().map(RunResult::costUsd).reduce(BigDecimal.ZERO, BigDecimal::max);
        double meanTokens = runs.stream().mapToLong(RunResult::tokens).average().orElse(0);
        long maxTokens = runs.stream().mapToLong(RunResult::tokens).max().orElse(0);
        return new EvalReport.PerConversation(
                Math.round(meanTokens * 10) / 10.0,
                maxTokens,
                total.divide(BigDecimal.valueOf(runs.size()), 8, RoundingMode.HALF_UP)
                        .stripTrailingZeros(),
                max,
                total);
    }
}
