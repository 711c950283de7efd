package dev.baton.server.metrics;

import dev.baton.runtime.experiment.ExperimentListener;
import dev.baton.runtime.experiment.TriggerFired;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Experiment meters, labelled by experiment and arm (both bounded: experiments are created by operators, arms are at
 * most eight each):
 *
 * <ul>
 *   <li>{@code baton_experiment_sessions_total}: new sessions routed to each arm ({@code _fallback} for the per-user
 *       fallback);
 *   <li>{@code baton_experiment_turns_total} by {@code outcome} ({@code ok} or the error code) and
 *       {@code baton_experiment_turn_duration_seconds}: each arm's turns and their latency (p50/p95 from the
 *       histogram);
 *   <li>{@code baton_experiment_cost_usd_total}: what each arm's model calls cost (per conversation: over
 *       {@code baton_experiment_sessions_total});
 *   <li>{@code baton_experiment_tool_calls_total} and {@code baton_experiment_tool_errors_total}: the tool-error rate;
 *   <li>{@code baton_experiment_eval_pass_rate}: the pass rate of each arm's latest eval run recorded here;
 *   <li>{@code baton_experiment_rollbacks_total} by {@code trigger}: arms set to weight 0 by a trigger.
 * </ul>
 */
public final class ExperimentMeters implements ExperimentListener {
    private static final Duration[] TURN_BUCKETS =
            Buckets.of("100ms", "250ms", "500ms", "1s", "2.5s", "5s", "10s", "20s", "30s", "60s");

    private final Meter.MeterProvider<Counter> sessions;
    private final Meter.MeterProvider<Counter> turns;
    private final Meter.MeterProvider<Timer> duration;
    private final Meter.MeterProvider<Counter> cost;
    private final Meter.MeterProvider<Counter> rollbacks;
    private final Meter.MeterProvider<Counter> toolCalls;
    private final Meter.MeterProvider<Counter> toolErrors;
    private final MeterRegistry registry;
    /** experiment + NUL + arm → the latest pass rate its gauge reads. */
    private final Map<String, AtomicReference<Double>> evalPassRates = new ConcurrentHashMap<>();

    public ExperimentMeters(MeterRegistry registry) {
        this.registry = registry;
        this.toolCalls = Counter.builder("baton.experiment.tool.calls")
                .description("Tool calls made in each arm's turns")
                .withRegistry(registry);
        this.toolErrors = Counter.builder("baton.experiment.tool.errors")
                .description("Tool calls of each arm that failed, timed out, had invalid arguments or were denied")
                .withRegistry(registry);
        this.sessions = Counter.builder("baton.experiment.sessions")
                .description("New sessions routed to each arm of an experiment")
                .withRegistry(registry);
        this.turns = Counter.builder("baton.experiment.turns")
                .description("Finished turns of each arm of an experiment, by outcome")
                .withRegistry(registry);
        this.duration = Timer.builder("baton.experiment.turn.duration")
                .description("How long each arm's turns took")
                .serviceLevelObjectives(TURN_BUCKETS)
                .withRegistry(registry);
        this.cost = Counter.builder("baton.experiment.cost.usd")
                .description("What each arm's model calls cost, in USD")
                .withRegistry(registry);
        this.rollbacks = Counter.builder("baton.experiment.rollbacks")
                .description("Arms set to weight 0 by a rollback trigger")
                .withRegistry(registry);
    }

    @Override
    public void routed(String experimentId, String arm) {
        sessions.withTags("experiment", experimentId, "arm", arm).increment();
    }

    @Override
    public void turnFinished(
            String experimentId,
            String arm,
            String status,
            long nanos,
            BigDecimal costUsd,
            int toolCalls,
            int failedToolCalls) {
        turns.withTags("experiment", experimentId, "arm", arm, "outcome", status)
                .increment();
        if (toolCalls > 0)
            this.toolCalls.withTags("experiment", experimentId, "arm", arm).increment(toolCalls);
        if (failedToolCalls > 0)
            toolErrors.withTags("experiment", experimentId, "arm", arm).increment(failedToolCalls);
        duration.withTags("experiment", experimentId, "arm", arm).record(nanos, TimeUnit.NANOSECONDS);
        if (costUsd != null && costUsd.signum() > 0)
            cost.withTags("experiment", experimentId, "arm", arm).increment(costUsd.doubleValue());
    }

    @Override
    public void evalRecorded(String experimentId, String arm, double passRate) {
        AtomicReference<Double> latest = evalPassRates.computeIfAbsent(experimentId + "\u0000" + arm, key -> {
            AtomicReference<Double> value = new AtomicReference<>(passRate);
            Gauge.builder("baton.experiment.eval.pass.rate", value, AtomicReference::get)
                    .description("The pass rate of each arm's latest eval run, 0 to 1")
                    .tags("experiment", experimentId, "arm", arm)
                    .register(registry);
            return value;
        });
        latest.set(passRate);
    }

    @Override
    public void rolledBack(String experimentId, String arm, TriggerFired trigger) {
        rollbacks
                .withTags("experiment", experimentId, "arm", arm, "trigger", trigger.trigger())
                .increment();
    }
}
