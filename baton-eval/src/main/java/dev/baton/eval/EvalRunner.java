package dev.baton.eval;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.Baton;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Runs a suite's scenarios through a {@link Baton} runtime, each run as a new user in a new session, at most
 * {@code parallel} at a time, and sums them up as an {@link EvalReport}. Nothing here knows HTTP: the turns go
 * through the same {@code Conversations} every front door calls, with the same admission, tools and stores.
 */
public final class EvalRunner {

    /**
     * @param repeat how many times each scenario runs (each time as a new user)
     * @param parallel how many runs at a time
     * @param model the model the agent answers with, for the report
     * @param simulated the bundled simulator answers (the report says so)
     * @param threshold the pass rate (0..1) the run must reach
     * @param warmUp send the first scenario's first message once, unmeasured, before the runs: the first turns of a
     *     fresh process pay for class loading, JIT and connection pools, which is not the agent's latency
     */
    public record Options(int repeat, int parallel, String model, boolean simulated, double threshold, boolean warmUp) {
        public Options {
            if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1");
            if (parallel < 1) throw new IllegalArgumentException("parallel must be >= 1");
            if (threshold < 0 || threshold > 1) throw new IllegalArgumentException("threshold must be 0..1");
            Objects.requireNonNull(model, "model");
        }
    }

    private final Conversations conversations;
    private final Function<String, Principal> users;
    private final Judge judge;
    private final Clock clock;

    /**
     * @param users the caller for a user id (each run is a new user with the suite's roles)
     * @param judge judges rubric expectations; null skips them (they are counted in the report)
     */
    public EvalRunner(Baton baton, Function<String, Principal> users, Judge judge, Clock clock) {
        this.conversations = baton.conversations();
        this.users = Objects.requireNonNull(users, "users");
        this.judge = judge;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public EvalReport run(EvalSuite suite, Options options) {
        Instant startedAt = clock.instant();
        long started = System.nanoTime();
        // a prefix of this run, so runs against a database kept between runs never share a user
        String prefix = "eval-" + Long.toString(startedAt.toEpochMilli(), 36) + "-";
        if (options.warmUp()) warmUp(suite, users.apply(prefix + "warm-up"));
        Semaphore slots = new Semaphore(options.parallel());
        List<Future<RunResult>> pending = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int s = 0; s < suite.scenarios().size(); s++) {
                Scenario scenario = suite.scenarios().get(s);
                for (int r = 1; r <= options.repeat(); r++) {
                    String userId = prefix + (s + 1) + "-" + r;
                    int repetition = r;
                    pending.add(threads.submit(() -> {
                        slots.acquire();
                        try {
                            return runOnce(suite.agent(), scenario, repetition, users.apply(userId));
                        } finally {
                            slots.release();
                        }
                    }));
                }
            }
            List<RunResult> runs = new ArrayList<>();
            for (Future<RunResult> run : pending) runs.add(result(run));
            long durationMs = (System.nanoTime() - started) / 1_000_000;
            return ReportSummary.of(suite, options, startedAt, durationMs, runs, skippedRubrics(suite, options));
        }
    }

    private void warmUp(EvalSuite suite, Principal user) {
        String message = suite.scenarios().getFirst().turns().getFirst().user();
        try {
            conversations.chat(
                    user,
                    new Conversations.ChatTarget(null, suite.agent()),
                    message,
                    SendOptions.withNewRequestId(),
                    TurnListener.NONE);
        } catch (RefusalException e) {
            // the runs will meet the same refusal and report it
        }
    }

    private RunResult runOnce(String agent, Scenario scenario, int repetition, Principal user) {
        List<TurnResult> turns = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        String sessionId = null;
        for (int t = 0; t < scenario.turns().size(); t++) {
            ScenarioTurn turn = scenario.turns().get(t);
            TurnWatch watch = new TurnWatch();
            long sent = System.nanoTime();
            TurnObservation seen;
            try {
                SendResult result = sessionId == null
                        ? conversations.chat(
                                user,
                                new Conversations.ChatTarget(null, agent),
                                turn.user(),
                                SendOptions.withNewRequestId(),
                                watch)
                        : conversations.send(user, sessionId, turn.user(), SendOptions.withNewRequestId(), watch);
                long latencyMs = (System.nanoTime() - sent) / 1_000_000;
                if (!(result instanceof SendResult.Ran ran))
                    throw new IllegalStateException("a message without an idempotency key was replayed");
                sessionId = ran.session().id();
                seen = watch.ran(turn.user(), ran.outcome(), latencyMs);
            } catch (RefusalException e) {
                long latencyMs = (System.nanoTime() - sent) / 1_000_000;
                seen = TurnWatch.refused(turn.user(), e.refusal().code() + ": " + e.getMessage(), latencyMs);
            } catch (RuntimeException e) {
                // one scenario the runtime could not run is that scenario's failure, reported with the rest
                long latencyMs = (System.nanoTime() - sent) / 1_000_000;
                seen = TurnWatch.refused(turn.user(), "unexpected: " + e, latencyMs);
            }
            List<CheckResult> checks = check(turn, seen);
            TurnResult result = TurnResult.of(seen, checks);
            turns.add(result);
            int number = t + 1;
            checks.stream()
                    .filter(c -> !c.passed())
                    .forEach(c -> failures.add("turn " + number + ": " + c.expectation() + " — " + c.detail()));
            // a conversation that never started cannot go on
            if (sessionId == null) {
                failures.add("turn " + number + ": the conversation could not start, later turns were not sent");
                break;
            }
        }
        long latency = turns.stream().mapToLong(TurnResult::latencyMs).sum();
        long tokens = turns.stream()
                .mapToLong(t -> t.inputTokens() + t.outputTokens())
                .sum();
        BigDecimal cost = turns.stream().map(TurnResult::costUsd).reduce(BigDecimal.ZERO, BigDecimal::add);
        List<CheckResult> conversation = new ArrayList<>();
        if (scenario.maxCostUsd() != null) {
            String expectation =
                    "conversation costs at most $" + scenario.maxCostUsd().toPlainString();
            CheckResult c = cost.compareTo(scenario.maxCostUsd()) <= 0
                    ? CheckResult.pass(expectation)
                    : CheckResult.fail(expectation, "cost $" + cost.toPlainString());
            conversation.add(c);
            if (!c.passed()) failures.add("conversation: " + c.expectation() + " — " + c.detail());
        }
        return new RunResult(
                scenario.name(), repetition, failures.isEmpty(), latency, tokens, cost, turns, conversation, failures);
    }

    private List<CheckResult> check(ScenarioTurn turn, TurnObservation seen) {
        List<CheckResult> checks = new ArrayList<>();
        for (Expectation expectation : turn.expectations()) {
            if (expectation instanceof Expectation.Rubric && judge == null) continue;
            checks.add(expectation.check(seen, judge));
        }
        return checks;
    }

    private int skippedRubrics(EvalSuite suite, Options options) {
        if (judge != null) return 0;
        long rubrics = suite.scenarios().stream()
                .flatMap(s -> s.turns().stream())
                .flatMap(t -> t.expectations().stream())
                .filter(e -> e instanceof Expectation.Rubric)
                .count();
        return Math.toIntExact(rubrics * options.repeat());
    }

    private static RunResult result(Future<RunResult> run) {
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the scenarios", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) throw r;
            throw new IllegalStateException(cause);
        }
    }
}
