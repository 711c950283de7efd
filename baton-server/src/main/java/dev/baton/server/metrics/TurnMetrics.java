package dev.baton.server.metrics;

import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.runtime.turn.RunningTurns;
import dev.baton.runtime.turn.TurnObserver;
import dev.baton.wire.MeterNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Turn and tool-call meters, from each finished turn's outcome:
 *
 * <ul>
 *   <li>{@code baton_turns_total} and {@code baton_turn_duration_seconds} by {@code agent} and {@code outcome}
 *       ({@code ok}, {@code blocked} when a module answered instead of the model, or the error code);
 *   <li>{@code baton_tool_calls_total} and {@code baton_tool_call_duration_seconds} by {@code tool} and
 *       {@code state} (the tool_calls row's state: succeeded, failed, timed_out, denied, …);
 *   <li>{@code baton_turn_cost_usd_total} by {@code agent}: what the turns cost (over
 *       {@code baton_sessions_started_total}, the cost per conversation);
 *   <li>{@code baton_turns_running}: turns running on this instance now.
 * </ul>
 *
 * Labels are agent ids, tool names from the agent's allow-list, states and error codes — all bounded by
 * configuration or code; never a user or a session.
 */
public final class TurnMetrics implements TurnObserver {
    /** The tool label of a call to a tool the agent's allow-list does not name (the model made it up). */
    public static final String UNKNOWN_TOOL = "unknown";

    private static final Duration[] TURN_BUCKETS =
            Buckets.of("100ms", "250ms", "500ms", "1s", "2.5s", "5s", "10s", "20s", "30s", "60s", "120s");
    private static final Duration[] TOOL_BUCKETS =
            Buckets.of("5ms", "10ms", "25ms", "50ms", "100ms", "250ms", "500ms", "1s", "2.5s", "5s", "10s", "30s");

    private final MeterRegistry registry;
    private final Meter.MeterProvider<Counter> turns;
    private final Meter.MeterProvider<Timer> turnDuration;
    private final Meter.MeterProvider<Counter> toolCalls;
    private final Meter.MeterProvider<Timer> toolDuration;
    private final Meter.MeterProvider<Counter> turnCost;

    public TurnMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.turns = Counter.builder(MeterNames.TURNS)
                .description("Finished turns by agent and outcome (ok, blocked or the error code)")
                .withRegistry(registry);
        this.turnDuration = Timer.builder(MeterNames.TURN_DURATION)
                .description("How long turns took, from admission to the last event")
                .serviceLevelObjectives(TURN_BUCKETS)
                .withRegistry(registry);
        this.turnCost = Counter.builder("baton.turn.cost.usd")
                .description("What finished turns cost in USD by the configured prices, by agent")
                .withRegistry(registry);
        this.toolCalls = Counter.builder("baton.tool.calls")
                .description("Tool calls by tool and final state")
                .withRegistry(registry);
        this.toolDuration = Timer.builder("baton.tool.call.duration")
                .description("How long tool calls took, by tool and final state")
                .serviceLevelObjectives(TOOL_BUCKETS)
                .withRegistry(registry);
    }

    /** Publishes how many turns {@code running} holds as {@code baton_turns_running}. */
    public TurnMetrics watching(RunningTurns running) {
        Gauge.builder("baton.turns.running", running, RunningTurns::count)
                .description("Turns running on this instance now")
                .strongReference(true)
                .register(registry);
        return this;
    }

    @Override
    public void finished(TurnRequest request, TurnOutcome outcome, String status, long nanos) {
        String agent = request.agent().id();
        String label = "ok".equals(status) && blocked(outcome) ? "blocked" : status;
        turns.withTags("agent", agent, "outcome", label).increment();
        turnDuration.withTags("agent", agent, "outcome", label).record(nanos, TimeUnit.NANOSECONDS);
        if (outcome.usage().costUsd() != null) {
            turnCost.withTags("agent", agent)
                    .increment(outcome.usage().costUsd().doubleValue());
        }
        for (ToolCallRecord call : outcome.toolCalls()) {
            // the model names the tool: a name outside the agent's allow-list is not a label value
            String tool = request.agent().tools().contains(call.toolName()) ? call.toolName() : UNKNOWN_TOOL;
            String state = call.state().wireName();
            toolCalls.withTags("tool", tool, "state", state).increment();
            toolDuration
                    .withTags("tool", tool, "state", state)
                    .record(Math.max(0, call.durationMs()), TimeUnit.MILLISECONDS);
        }
    }

    private static boolean blocked(TurnOutcome outcome) {
        return outcome.userMessage() != null && outcome.userMessage().status() == MessageStatus.BLOCKED;
    }
}
