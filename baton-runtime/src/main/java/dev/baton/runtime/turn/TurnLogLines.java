package dev.baton.runtime.turn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The structured log events of a turn on logger {@code baton.turn}: {@code turn_started}, {@code tool_call_started}
 * (DEBUG), {@code tool_call_finished}, {@code approval_required}, {@code turn_failed} and {@code turn_finished}, each
 * with its name in the {@code event} field and one JSON field per value (the request, user and session ids come from
 * the turn's MDC). Message contents and tool arguments are never logged: sizes, names and ids only. The model calls'
 * own events ({@code model_call_finished}, {@code model_call_failed}) are logged where the call is made.
 */
final class TurnLogLines {
    private static final Logger log = LoggerFactory.getLogger("baton.turn");

    private TurnLogLines() {}

    static void started(TurnRequest req) {
        log.atInfo()
                .addKeyValue("event", "turn_started")
                .addKeyValue("agentId", req.agent().id())
                .addKeyValue("modelAlias", req.agent().model())
                .addKeyValue(
                        "inputLength",
                        req.userContent() == null ? 0 : req.userContent().length())
                .addKeyValue("resumed", req.resume() != null)
                .log("turn started");
    }

    /** {@code sink}, with the tool calls, approvals and failures it hears logged first. */
    static Consumer<TurnEvent> watching(Consumer<TurnEvent> sink) {
        return event -> {
            try {
                logEvent(event);
            } catch (RuntimeException e) {
                // a log line must never fail the turn
            }
            sink.accept(event);
        };
    }

    private static void logEvent(TurnEvent event) {
        switch (event) {
            case TurnEvent.ToolCallStarted call -> {
                if (log.isDebugEnabled())
                    log.atDebug()
                            .addKeyValue("event", "tool_call_started")
                            .addKeyValue("tool", call.name())
                            .addKeyValue("toolCallId", call.id())
                            .addKeyValue("argumentNames", names(call.arguments()))
                            .log("tool call started: {}", call.name());
            }
            case TurnEvent.ToolCallFinished call -> {
                LoggingEventBuilder line = log.atInfo()
                        .addKeyValue("event", "tool_call_finished")
                        .addKeyValue("tool", call.name())
                        .addKeyValue("toolCallId", call.id())
                        .addKeyValue("success", call.ok())
                        .addKeyValue("durationMs", call.durationMs());
                if (!call.ok()) line = line.addKeyValue("error", call.error());
                line.log("tool call finished: {}", call.name());
            }
            case TurnEvent.ApprovalRequired held ->
                log.atInfo()
                        .addKeyValue("event", "approval_required")
                        .addKeyValue("tool", held.name())
                        .addKeyValue("approvalCallId", held.callId())
                        .addKeyValue("expiresAt", held.expiresAt().toString())
                        .log("tool call held for approval: {}", held.name());
            case TurnEvent.Failed failed ->
                log.atInfo()
                        .addKeyValue("event", "turn_failed")
                        .addKeyValue("errorType", failed.code())
                        .addKeyValue("errorMessage", failed.message())
                        .addKeyValue("recoverable", failed.retryable())
                        .log("turn failed: {}", failed.code());
            default -> {}
        }
    }

    static void finished(TurnRequest req, TurnOutcome outcome, String status, long latencyMs) {
        TurnEvent.Usage u = outcome.usage();
        List<String> tools = new ArrayList<>(outcome.toolCalls().size());
        outcome.toolCalls().forEach(call -> tools.add(call.toolName()));
        log.atInfo()
                .addKeyValue("event", "turn_finished")
                .addKeyValue("status", status)
                .addKeyValue("success", outcome.succeeded())
                .addKeyValue("agentId", req.agent().id())
                .addKeyValue("modelAlias", req.agent().model())
                .addKeyValue("model", outcome.model())
                .addKeyValue("inputTokens", u.inputTokens())
                .addKeyValue("outputTokens", u.outputTokens())
                .addKeyValue("cachedInputTokens", u.cachedInputTokens())
                .addKeyValue("costUsd", u.costUsd())
                .addKeyValue("latencyMs", latencyMs)
                .addKeyValue("toolCalls", tools.size())
                .addKeyValue("toolsCalled", tools)
                .log("turn finished: {}", status);
    }

    private static List<String> names(JsonNode arguments) {
        List<String> names = new ArrayList<>();
        if (arguments != null) arguments.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
