package dev.baton.core.turn;

import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** The running turn's mutable working copy of {@link TurnState}; confined to the thread that runs the turn. */
final class TurnProgress {
    final List<ChatMessage> messages;
    int iteration;
    final StringBuilder answer;
    String model;
    final List<ToolCallOutcome> toolCalls;
    final List<UsageRecord> usage;
    final CallCache cache;

    private TurnProgress(TurnState state) {
        this.messages = new ArrayList<>(state.messages());
        this.iteration = state.iteration();
        this.answer = new StringBuilder(state.answerText());
        this.model = state.model();
        this.toolCalls = new ArrayList<>(state.toolCalls());
        this.usage = new ArrayList<>(state.usage());
        this.cache = CallCache.restore(state.callCache());
    }

    static TurnProgress resume(TurnState state) {
        return new TurnProgress(state);
    }

    TurnState snapshot() {
        return new TurnState(messages, iteration, answer.toString(), model, toolCalls, usage, cache.snapshot());
    }

    TurnEvent.Usage totalUsage() {
        long in = 0;
        long out = 0;
        long cached = 0;
        BigDecimal cost = BigDecimal.ZERO;
        for (UsageRecord u : usage) {
            in += u.inputTokens();
            out += u.outputTokens();
            cached += u.cachedInputTokens();
            cost = cost.add(u.costUsd());
        }
        return new TurnEvent.Usage(in, out, cached, cost);
    }

    List<String> toolNames() {
        return toolCalls.stream().map(o -> o.request().name()).toList();
    }
}
