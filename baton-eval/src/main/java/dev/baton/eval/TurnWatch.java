package dev.baton.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.conversation.TurnListener;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Listens to one turn and sums it up as a {@link TurnObservation}. The model calls are counted from the events: the
 * runtime announces a model reply's tool calls together ({@code ToolCallStarted} for each, then their results), so
 * each group of calls is one model call, and the answer one more. The calls a reply holds for approval are announced
 * after the reply's other calls ran, so they are counted as a model call of their own: a reply that mixes held and
 * other calls counts once too often (the runtime's events do not tell the two apart).
 */
final class TurnWatch implements TurnListener {

    private final Map<String, JsonNode> arguments = new LinkedHashMap<>();
    private final List<ObservedToolCall> calls = new ArrayList<>();
    private final List<String> approvals = new ArrayList<>();
    private int toolRounds;
    private boolean inRound;

    @Override
    public void onEvent(TurnEvent event) {
        switch (event) {
            case TurnEvent.ToolCallStarted started -> {
                if (!inRound) toolRounds++;
                inRound = true;
                arguments.put(started.id(), started.arguments());
            }
            case TurnEvent.ToolCallFinished finished -> {
                JsonNode args = arguments.getOrDefault(finished.id(), MissingNode.getInstance());
                calls.add(new ObservedToolCall(finished.name(), args, finished.ok(), finished.error()));
                // a reply's calls all start before any finishes: a call starting after this is the next reply's
                inRound = false;
            }
            case TurnEvent.ApprovalRequired required -> {
                if (approvals.isEmpty()) toolRounds++;
                approvals.add(required.name());
                inRound = false;
            }
            default -> inRound = false;
        }
    }

    /** The turn as it ended. */
    TurnObservation ran(String message, TurnOutcome outcome, long latencyMs) {
        TurnEvent.Usage usage = outcome.usage();
        String error = outcome.failure().map(f -> f.code() + ": " + f.message()).orElse(null);
        return new TurnObservation(
                message,
                outcome.answer(),
                calls,
                approvals,
                modelCalls(outcome.terminal()),
                error,
                latencyMs,
                usage.inputTokens(),
                usage.outputTokens(),
                usage.costUsd());
    }

    /** A message refused before its turn ran: no model call, no answer. */
    static TurnObservation refused(String message, String error, long latencyMs) {
        return new TurnObservation(message, "", List.of(), List.of(), 0, error, latencyMs, 0, 0, BigDecimal.ZERO);
    }

    private int modelCalls(TurnEvent terminal) {
        return switch (terminal) {
            // a module's block answers without the model
            case TurnEvent.Done done when done.stopReason().equals(TurnEvent.Done.BLOCKED) -> toolRounds;
            case TurnEvent.Done done -> toolRounds + 1;
            default -> toolRounds;
        };
    }
}
