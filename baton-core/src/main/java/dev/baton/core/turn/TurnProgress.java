package dev.baton.core.turn;

import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.text.TextPieces;
import dev.baton.core.tool.CallCache;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The running turn's mutable working copy of {@link TurnState}; confined to the thread that runs the turn.
 *
 * <p>The deadline is kept twice: as the wall-clock instant the state carries to other instances, and as a
 * {@link System#nanoTime()} reading that this instance enforces (immune to clock adjustments while it runs).
 */
final class TurnProgress {
    final String turnId;
    final String sessionId;
    final String userMessageId;
    final Instant deadline;
    /** The deadline on this instance's monotonic clock; meaningless when {@code deadline} is null. */
    final long deadlineNanos;

    final List<ChatMessage> messages;
    int iteration;
    /** The answer so far, filtered: its long pieces are the very strings the model's reply keeps. */
    final TextPieces answer;

    String model;
    final List<TurnState.ToolCall> toolCalls;
    final List<UsageRecord> usage;
    final CallCache cache;
    /** The filters' state as restored; the live chain's state is asked for when a snapshot is taken. */
    final OutputFilterChain.State filters;
    /** The turn's lease once {@link TurnJournal#open} gave it one; its writes are fenced by it. Null: not leased. */
    TurnFence fence;

    private TurnProgress(TurnState state, long deadlineNanos) {
        this.turnId = state.turnId();
        this.sessionId = state.sessionId();
        this.userMessageId = state.userMessageId();
        this.deadline = state.deadline();
        this.deadlineNanos = deadlineNanos;
        this.messages = new ArrayList<>(state.messages());
        this.iteration = state.iteration();
        this.answer = TextPieces.of(state.answerText());
        this.model = state.model();
        this.toolCalls = new ArrayList<>(state.toolCalls());
        this.usage = new ArrayList<>(state.usage());
        this.cache = CallCache.restore(state.callCache());
        this.filters = state.filters();
    }

    /**
     * A new turn's progress.
     *
     * @param requestTimeout the limit of the whole turn; null for none
     * @param startedNanos when the turn started, by {@link System#nanoTime()}
     * @param startedAt the same moment by the wall clock
     */
    static TurnProgress start(
            String turnId,
            String sessionId,
            String userMessageId,
            Duration requestTimeout,
            long startedNanos,
            Instant startedAt) {
        Instant deadline = requestTimeout == null ? null : startedAt.plus(requestTimeout);
        long deadlineNanos = requestTimeout == null ? Long.MAX_VALUE : startedNanos + requestTimeout.toNanos();
        return new TurnProgress(TurnState.start(turnId, sessionId, userMessageId, deadline, List.of()), deadlineNanos);
    }

    /**
     * The progress of a turn that goes on from a stored state, on this instance: the deadline is translated to
     * this instance's monotonic clock by the time left on the wall clock.
     */
    static TurnProgress resume(TurnState state, Clock clock) {
        long deadlineNanos = state.deadline() == null
                ? Long.MAX_VALUE
                : System.nanoTime()
                        + Duration.between(clock.instant(), state.deadline()).toNanos();
        return new TurnProgress(state, deadlineNanos);
    }

    /** Time left until the deadline (zero or negative once it has passed); null when the turn has no limit. */
    Duration timeLeft() {
        return deadline == null ? null : Duration.ofNanos(deadlineNanos - System.nanoTime());
    }

    /** Whether the whole request's time is used up (false for a turn with no deadline). */
    boolean deadlinePassed() {
        return deadline != null && deadlineNanos - System.nanoTime() <= 0;
    }

    /**
     * Adds the results of calls the last model reply asked for, keeping every result of that reply in the order of
     * its calls (a paused turn's results arrive in two parts: the calls that ran before the pause, then the held
     * ones).
     */
    void addToolResults(List<ChatMessage.ToolResult> results) {
        List<ChatMessage> added = withToolResults(messages, results);
        messages.clear();
        messages.addAll(added);
    }

    /** {@code messages} with {@code results} added as {@link #addToolResults} adds them. */
    static List<ChatMessage> withToolResults(List<ChatMessage> messages, List<ChatMessage.ToolResult> results) {
        int reply = -1;
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof ChatMessage.Assistant) {
                reply = i;
                break;
            }
        }
        List<ChatMessage> added = new ArrayList<>(messages);
        if (reply < 0) {
            added.addAll(results);
            return added;
        }
        List<ChatMessage> tail = new ArrayList<>(messages.subList(reply + 1, messages.size()));
        tail.addAll(results);
        List<String> order = ((ChatMessage.Assistant) messages.get(reply))
                .toolCalls().stream().map(c -> c.id()).toList();
        tail.sort(java.util.Comparator.comparingInt(
                m -> m instanceof ChatMessage.ToolResult r ? position(order, r.toolCallId()) : Integer.MAX_VALUE));
        added.subList(reply + 1, added.size()).clear();
        added.addAll(tail);
        return added;
    }

    private static int position(List<String> order, String id) {
        int at = order.indexOf(id);
        return at < 0 ? Integer.MAX_VALUE : at;
    }

    TurnState snapshot(OutputFilterChain.State filterState) {
        return new TurnState(
                turnId,
                sessionId,
                userMessageId,
                deadline,
                iteration,
                messages,
                answer.toString(),
                model,
                toolCalls,
                usage,
                cache.snapshot(),
                filterState);
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
        return toolCalls.stream().map(c -> c.outcome().request().name()).toList();
    }
}
