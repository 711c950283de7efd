package dev.baton.eval;

import java.util.Locale;

/** A report as Markdown: the verdict first, then figures, a table of scenarios, and what failed and why. */
final class MarkdownReport {

    private MarkdownReport() {}

    static String render(EvalReport r) {
        StringBuilder md = new StringBuilder();
        md.append("# Eval: ")
                .append(r.suite())
                .append(" (agent `")
                .append(r.agent())
                .append("`)\n\n");
        if (r.simulated()) md.append("> **SIMULATED MODEL.** ").append(r.note()).append("\n\n");
        md.append("**")
                .append(r.thresholdMet() ? "PASSED" : "FAILED")
                .append("**: ")
                .append(percent(r.passRate()))
                .append(" of runs passed (")
                .append(r.passedRuns())
                .append("/")
                .append(r.runCount())
                .append("), threshold ")
                .append(percent(r.threshold()))
                .append(".\n\n");
        md.append("| | |\n|---|---|\n");
        row(md, "suite", "`" + r.source() + "`");
        row(md, "model", "`" + r.model() + "`" + (r.simulated() ? " (simulator)" : ""));
        row(md, "scenarios × repeat", r.scenarioCount() + " × " + r.repeat() + " (" + r.parallel() + " at a time)");
        row(
                md,
                "turn latency",
                "p50 " + r.latency().p50Ms() + " ms, p95 " + r.latency().p95Ms() + " ms, max "
                        + r.latency().maxMs() + " ms over " + r.latency().turns() + " turns");
        row(
                md,
                "per conversation",
                String.format(Locale.ROOT, "%.1f", r.perConversation().meanTokens()) + " tokens (max "
                        + r.perConversation().maxTokens() + "), $"
                        + money(r.perConversation().meanCostUsd()) + " (max $"
                        + money(r.perConversation().maxCostUsd()) + ")");
        row(md, "total cost", "$" + money(r.perConversation().totalCostUsd()));
        if (r.rubricsSkipped() > 0) row(md, "rubrics", r.rubricsSkipped() + " not judged (no --judge model)");
        row(md, "started", r.startedAt() + ", took " + r.durationMs() + " ms");
        md.append("\n## Scenarios\n\n| scenario | category | passed | rate |\n|---|---|---|---|\n");
        for (ScenarioResult s : r.scenarios()) {
            md.append("| ")
                    .append(cell(s.name()))
                    .append(" | ")
                    .append(cell(s.category()))
                    .append(" | ")
                    .append(s.passedRuns())
                    .append("/")
                    .append(s.runs())
                    .append(" | ")
                    .append(s.passRate() == 1 ? "✅ " : "❌ ")
                    .append(percent(s.passRate()))
                    .append(" |\n");
        }
        boolean anyFailed = r.scenarios().stream().anyMatch(s -> !s.failures().isEmpty());
        if (anyFailed) {
            md.append("\n## Failures\n");
            for (ScenarioResult s : r.scenarios()) {
                if (s.failures().isEmpty()) continue;
                md.append("\n### ").append(s.name()).append("\n\n");
                s.failures().forEach(f -> md.append("- ").append(f).append('\n'));
            }
        }
        return md.toString();
    }

    private static void row(StringBuilder md, String name, String value) {
        md.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** Dollars as written, without trailing zeros ("0.0021", "0"). */
    static String money(java.math.BigDecimal usd) {
        return usd.signum() == 0 ? "0" : usd.stripTrailingZeros().toPlainString();
    }

    static String percent(double rate) {
        return String.format(Locale.ROOT, "%.1f%%", rate * 100);
    }
}
