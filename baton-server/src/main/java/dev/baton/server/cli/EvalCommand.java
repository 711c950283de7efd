package dev.baton.server.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.baton.app.config.ConfigLoader;
import dev.baton.eval.EvalReport;
import dev.baton.eval.EvalRunner;
import dev.baton.eval.EvalRuntime;
import dev.baton.eval.EvalSuite;
import dev.baton.eval.ReportFormat;
import dev.baton.eval.ScenarioResult;
import dev.baton.eval.ShippedSuites;
import dev.baton.runtime.config.ConfigFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code baton eval}: runs a scenario suite through the runtime {@code baton serve} would build and says whether the
 * agent met the threshold. A thin adapter: the suite, the runner and the report live in baton-eval ({@code dev.baton.eval}).
 */
@Command(
        name = "eval",
        mixinStandardHelpOptions = true,
        description = "Run a scenario suite against an agent, in process, on a temporary SQLite database; report "
                + "pass rates, latency, tokens and cost. With no provider key the bundled LLM simulator answers "
                + "(that proves the harness, not a model). See docs/evals.md.",
        footer = {
            "",
            "Exit codes: 0 the pass rate met the threshold, 7 it did not, 3 the suite or configuration is wrong;",
            "with --attach, 4 the server cannot be reached, 5 it refused the token, 1 it refused the result."
        })
final class EvalCommand implements Callable<Integer> {

    @Option(
            names = "--suite",
            required = true,
            description = "The suite: a YAML file, or a name found as evals/<name>.yaml (learning, tasks, "
                    + "learning-platform).")
    String suite;

    @Option(names = "--agent", description = "The agent to evaluate (default: the suite's own).")
    String agent;

    @Option(
            names = "--model",
            description = "provider:model the agent answers with instead of its own (e.g. openai:gpt-4o-mini).")
    String model;

    @Option(names = "--repeat", defaultValue = "1", description = "Runs per scenario (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--parallel", defaultValue = "4", description = "Runs at a time (default: ${DEFAULT-VALUE}).")
    int parallel;

    @Option(
            names = "--threshold",
            defaultValue = "0.95",
            description = "The pass rate (0..1) to reach; below it the exit code is 7 (default: ${DEFAULT-VALUE}).")
    double threshold;

    @Option(
            names = "--report",
            description = "Write the report here: .json (every run and check) or .md; may be given twice.")
    List<Path> reports = new ArrayList<>();

    @Option(
            names = "--judge",
            description = "provider:model that judges the suite's rubric expectations (off by default: they are "
                    + "skipped and counted).")
    String judge;

    @Option(
            names = "--no-warm-up",
            description = "Measure from the very first turn (by default one unmeasured turn warms the process up).")
    boolean noWarmUp;

    @Option(names = "--config", description = "Path to baton.yaml (default: ./baton.yaml or $BATON_CONFIG).")
    Path config;

    @Option(
            names = "--attach",
            paramLabel = "EXPERIMENT/ARM",
            description = "After the run, record its pass rate on that arm of a running server's experiment (the "
                    + "arm's report shows it and its accuracy trigger judges it; needs admin:experiments).")
    String attach;

    @Option(
            names = "--url",
            description = "The server for --attach (default: $BATON_URL, else http://localhost:$BATON_PORT, port "
                    + "8080 by default).")
    String url;

    @Option(names = "--token", description = "Bearer token for --attach (default: $BATON_TOKEN).")
    String token;

    private final PrintStream out = System.out;

    @Override
    public Integer call() {
        if (repeat < 1) throw new CliFailure(ExitCodes.USAGE, "--repeat must be at least 1");
        if (parallel < 1) throw new CliFailure(ExitCodes.USAGE, "--parallel must be at least 1");
        if (threshold < 0 || threshold > 1)
            throw new CliFailure(ExitCodes.USAGE, "--threshold is a pass rate from 0 to 1, e.g. 0.95");
        Map<String, String> env = System.getenv();
        // a mistake in --attach shows before the suite runs, not after minutes of it
        ArmTarget target = attach == null ? null : ArmTarget.parse(attach, url, token, env);
        List<ReportFormat> formats = new ArrayList<>();
        for (Path report : reports) {
            try {
                formats.add(ReportFormat.of(report));
            } catch (IllegalArgumentException e) {
                throw new CliFailure(ExitCodes.USAGE, e.getMessage());
            }
        }
        // the server's INFO lines would bury the report; warnings and errors still show
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (System.getenv("BATON_LOG_LEVEL") == null) root.setLevel(Level.WARN);

        EvalSuite evalSuite = ShippedSuites.onClassPath().find(suite);
        if (agent != null) evalSuite = evalSuite.withAgent(agent);
        ConfigFile file = ConfigLoader.read(config, env);
        EvalReport report;
        try (EvalRuntime runtime = EvalRuntime.start(file, env, evalSuite.agent(), model, Clock.systemUTC())) {
            if (runtime.simulated()) {
                out.println("*** No model provider configured: the bundled LLM SIMULATOR answers. This run proves ***");
                out.println("*** the harness and the runtime, not a model's skill.                                ***");
            }
            EvalSuite running = evalSuite;
            runtime.user("eval-check", running.roles()); // an unknown role fails before anything runs
            EvalRunner runner = new EvalRunner(
                    runtime.baton(),
                    id -> runtime.user(id, running.roles()),
                    judge == null ? null : runtime.judge(judge),
                    Clock.systemUTC());
            report = runner.run(
                    running,
                    new EvalRunner.Options(
                            repeat, parallel, runtime.model(), runtime.simulated(), threshold, !noWarmUp));
        }
        for (int i = 0; i < reports.size(); i++)
            write(reports.get(i), formats.get(i).render(report));
        print(report);
        if (target != null) target.record(report, out);
        return report.thresholdMet() ? ExitCodes.OK : ExitCodes.BELOW_THRESHOLD;
    }

    private static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.FAILED, "cannot write the report " + file + ": " + e.getMessage(), e);
        }
    }

    private void print(EvalReport r) {
        out.println();
        for (ScenarioResult s : r.scenarios()) {
            out.println((s.passRate() == 1 ? "  ok    " : "  FAIL  ")
                    + s.name()
                    + (r.repeat() > 1 ? "  (" + s.passedRuns() + "/" + s.runs() + ")" : ""));
            s.failures().forEach(f -> out.println("          " + f));
        }
        out.println();
        out.println(String.format(
                Locale.ROOT,
                "%s: %d/%d runs passed (%.1f%%), threshold %.1f%% — %s",
                r.suite(),
                r.passedRuns(),
                r.runCount(),
                r.passRate() * 100,
                r.threshold() * 100,
                r.thresholdMet() ? "PASSED" : "BELOW THRESHOLD"));
        out.println("agent " + r.agent() + ", model " + r.model() + (r.simulated() ? " (SIMULATOR)" : "")
                + "; turn latency p50 " + r.latency().p50Ms() + " ms, p95 "
                + r.latency().p95Ms() + " ms"
                + "; per conversation "
                + String.format(Locale.ROOT, "%.1f", r.perConversation().meanTokens())
                + " tokens, $" + r.perConversation().meanCostUsd().toPlainString());
        if (r.rubricsSkipped() > 0)
            out.println(r.rubricsSkipped() + " rubric check(s) not judged: give --judge provider:model");
        out.flush();
    }
}
