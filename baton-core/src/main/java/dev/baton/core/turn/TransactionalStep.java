package dev.baton.core.turn;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.StepRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.TransactionalCalls;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional tool calls of one step of a turn: each runs in a transaction that also writes its
 * {@code tool_calls} row and, in a leased turn, the turn's checkpoint with its result, under the turn's fence
 * ({@link ConversationStore#recordStepWith}). After a crash such a call is either in the checkpoint (the takeover
 * replays it) or left no effect (the takeover may run it again). The step's transactional calls commit one at a time,
 * each checkpoint holding every result committed before it; the step's own write then records the other calls.
 *
 * <p>A turn that is not leased commits the same way, without a checkpoint: the tool's effect and the row of its call
 * are one transaction rather than two, so its effect is never without its record (the audit trail) and the step has
 * one write less.
 */
final class TransactionalStep implements TransactionalCalls {
    private static final Logger log = LoggerFactory.getLogger(TransactionalStep.class);

    static final ToolError NOT_SAVED =
            new ToolError("tool_failed", "The tool's changes could not be saved, so nothing was changed.");
    private static final ToolError GAVE_UP = new ToolError("cancelled", "The call was given up before it ran.");

    private final ConversationStore store;
    private final TurnRequest request;
    private final TurnProgress progress;
    private final AnswerStream out;
    private final Clock clock;
    /**
     * One commit at a time: each checkpoint holds the results committed before it. Held while a tool works, so the
     * turn's thread never takes it (a call the turn gave up on may still be working).
     */
    private final ReentrantLock oneAtATime = new ReentrantLock();
    /** The turn's state before the step, taken at the first commit; guarded by {@link #oneAtATime}. */
    private TurnState before;
    /** The calls committed so far, by the model's call id, in the order they committed. */
    private final Map<String, Committed> committed = Collections.synchronizedMap(new LinkedHashMap<>());
    /** The checkpoint the last commit wrote; null before any. */
    private volatile String lastCheckpoint;
    /** The ids of the calls' rows, by the model's call id. */
    private final Map<String, String> recordIds = new ConcurrentHashMap<>();

    private record Committed(TurnState.ToolCall call, String canonicalArguments) {}

    /**
     * @param progress read by the tool threads while the turn's thread waits for them, never written meanwhile
     * @param recordIds the ids the calls' rows must have, by the model's call id (held calls are known by theirs);
     *     the others get new ones
     */
    TransactionalStep(
            ConversationStore store,
            TurnRequest request,
            TurnProgress progress,
            AnswerStream out,
            Map<String, String> recordIds,
            Clock clock) {
        this.store = store;
        this.recordIds.putAll(recordIds);
        this.request = request;
        this.progress = progress;
        this.out = out;
        this.clock = clock;
    }

    /** What the step's tool calls run with. */
    TransactionalCalls calls() {
        return this;
    }

    @Override
    public ToolCallOutcome commit(
            ToolCallRequest call,
            String canonicalArguments,
            Supplier<ToolCallOutcome> run,
            BooleanSupplier stillWanted) {
        try {
            oneAtATime.lockInterruptibly();
        } catch (InterruptedException e) {
            // the turn gave up on the call while it waited for its turn to commit: it never ran
            Thread.currentThread().interrupt();
            return ToolCallOutcome.rejected(call, ToolCallState.CANCELLED, GAVE_UP, clock.instant());
        }
        ToolCallOutcome[] ran = new ToolCallOutcome[1];
        TurnState.ToolCall[] kept = new TurnState.ToolCall[1];
        String[] stateOfLastCommit = new String[1];
        try {
            store.recordStepWith(request.principal().userId(), progress.fence, () -> {
                ran[0] = run.get();
                // a failure keeps none of its writes; it is recorded with the step, as any call's
                if (ran[0].state() != ToolCallState.SUCCEEDED || !stillWanted.getAsBoolean()) return null;
                kept[0] = new TurnState.ToolCall(recordIdOf(call), ran[0]);
                // a turn that is not leased has no checkpoint: its call's row alone commits with the effect
                String state =
                        progress.fence == null ? null : TurnStateCodec.encode(stateWith(kept[0], canonicalArguments));
                stateOfLastCommit[0] = state;
                return new StepRecord(List.of(kept[0].toRecord(request.session().id(), null)), state);
            });
            if (kept[0] != null) {
                committed.put(call.id(), new Committed(kept[0], canonicalArguments));
                lastCheckpoint = stateOfLastCommit[0];
            }
            return ran[0];
        } catch (TurnFencedException e) {
            log.info(
                    "request {}: turn {} was taken over; the writes of {} were rolled back",
                    request.requestId(),
                    progress.turnId,
                    call.name());
            return notSaved(call, ran[0]);
        } catch (RuntimeException e) {
            log.warn(
                    "request {}: the writes of {} were rolled back: {}",
                    request.requestId(),
                    call.name(),
                    e.toString());
            return notSaved(call, ran[0]);
        } finally {
            oneAtATime.unlock();
        }
    }

    /**
     * The step's calls with the ids of their rows: a committed call keeps the one it was written under, the others
     * get theirs (as {@link #commit} would have given them).
     */
    List<TurnState.ToolCall> toolCalls(List<ToolCallOutcome> outcomes) {
        return outcomes.stream()
                .map(o -> new TurnState.ToolCall(recordIdOf(o.request()), o))
                .toList();
    }

    /** Those of {@code calls} that are not written yet (the committed ones are, with their effect). */
    List<TurnState.ToolCall> unrecorded(List<TurnState.ToolCall> calls) {
        return calls.stream().filter(c -> !committed(c)).toList();
    }

    /**
     * The checkpoint the step's last commit wrote (under the fence, with its call), or null when none committed: when
     * every call of the step committed, it may be the state the step's own write would write again.
     */
    String lastCheckpoint() {
        return lastCheckpoint;
    }

    /** Whether {@code call} was committed with its effect. */
    boolean committed(TurnState.ToolCall call) {
        Committed c = committed.get(call.outcome().request().id());
        return c != null && c.call().equals(call);
    }

    /** The id of the call's row: the one it was known by before it ran (a held call's), else a new one, once. */
    private String recordIdOf(ToolCallRequest call) {
        return recordIds.computeIfAbsent(call.id(), id -> Ids.newId());
    }

    /** The turn's state after the calls committed so far and {@code call}. */
    private TurnState stateWith(TurnState.ToolCall call, String canonicalArguments) {
        if (before == null) before = progress.snapshot(out.filters().snapshot());
        List<TurnState.ToolCall> calls = new ArrayList<>(before.toolCalls());
        List<ChatMessage.ToolResult> results = new ArrayList<>();
        CallCache cache = CallCache.restore(before.callCache());
        List<Committed> done;
        synchronized (committed) {
            done = new ArrayList<>(committed.values());
        }
        done.add(new Committed(call, canonicalArguments));
        for (Committed c : done) {
            calls.add(c.call());
            results.add(c.call().outcome().toMessage());
            cache.remember(c.canonicalArguments(), c.call().outcome());
        }
        return new TurnState(
                before.turnId(),
                before.sessionId(),
                before.userMessageId(),
                before.deadline(),
                before.iteration(),
                TurnProgress.withToolResults(before.messages(), results),
                before.answerText(),
                before.model(),
                calls,
                before.usage(),
                cache.snapshot(),
                before.filters());
    }

    /** A call whose writes were rolled back after it ran (or before, when the transaction could not begin). */
    private ToolCallOutcome notSaved(ToolCallRequest call, ToolCallOutcome ran) {
        if (ran == null) return ToolCallOutcome.rejected(call, ToolCallState.FAILED, NOT_SAVED, clock.instant());
        return new ToolCallOutcome(
                call, ToolCallState.FAILED, null, NOT_SAVED, ran.startedAt(), ran.completedAt(), ran.durationMs());
    }
}
