package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.hook.AfterAiOutcome;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.ModuleAudit;
import dev.baton.core.hook.ModuleExtraction;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.store.StoreUnavailableException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a turn that got past its user message ends: {@link #answered} saves the model's answer once the output
 * filters and after_ai modules had their say; {@link #failed} and {@link #fail} save what the turn got to with the
 * failure's status. Either way the outcome's terminal event is the last one the sink receives.
 */
final class TurnEnding {
    private static final Logger log = LoggerFactory.getLogger(TurnEnding.class);

    private final TurnRecorder recorder;
    private final ModulePipeline modules;
    private final PendingUsage pendingUsage;
    private final TurnJournal journal;

    TurnEnding(TurnRecorder recorder, ModulePipeline modules, PendingUsage pendingUsage, TurnJournal journal) {
        this.recorder = recorder;
        this.modules = modules;
        this.pendingUsage = pendingUsage;
        this.journal = journal;
    }

    /**
     * Ends a turn the model answered: output filters' and after_ai modules' results, then the answer is saved. A
     * fail-closed output filter that failed, or an after_ai block, replaces the answer and is reported as
     * {@link TurnEvent.Blocked}.
     *
     * @param stopReason why the steps stopped, for {@link TurnEvent.Done#stopReason()}
     */
    TurnOutcome answered(RunningTurn turn, String stopReason) {
        TurnRequest request = turn.request();
        AnswerStream out = turn.out();
        OutputFilterChain filters = out.filters();
        List<ModuleAudit> audit = new ArrayList<>(filters.audit());
        List<ModuleExtraction> extractions = new ArrayList<>(filters.extractions());
        String answer;
        String reason = stopReason;
        if (filters.safeResponse().isPresent()) {
            reason = TurnEvent.Done.BLOCKED;
            answer = filters.safeResponse().get();
            log.info(
                    "request {}: answer withheld, output filter of {} failed closed",
                    request.requestId(),
                    filters.withheldBy());
            turn.sink().accept(new TurnEvent.Blocked(answer));
        } else {
            HookContext withResponse = turn.hookContext().withResponse(out.answer());
            AfterAiOutcome after = modules.afterAi(withResponse);
            audit.addAll(after.audit());
            extractions.addAll(after.extractions());
            answer = after.response();
            if (after.blocked()) {
                reason = TurnEvent.Done.BLOCKED;
                log.info("request {}: answer blocked after the model", request.requestId());
                turn.sink().accept(new TurnEvent.Blocked(answer));
            } else {
                out.release(answer);
            }
        }
        TurnProgress progress = turn.progress();
        TurnRecorder.Recorded recorded =
                recorder.complete(request, progress, answer, MessageStatus.COMPLETE, audit, extractions);
        TurnEvent.Usage usage = progress.totalUsage();
        long latencyMs = (System.nanoTime() - turn.startedNanos()) / 1_000_000;
        TurnEvent.Done done = new TurnEvent.Done(
                recorded.message().id(), progress.model, usage, latencyMs, progress.toolNames(), reason);
        return end(
                turn.sink(),
                new TurnOutcome(turn.user(), recorded.message(), recorded.toolCalls(), usage, progress.model, done));
    }

    /** Ends the turn a failure interrupted: cancelled, a model failure, or anything unexpected. */
    TurnOutcome failed(
            RuntimeException e,
            TurnRequest request,
            Message user,
            TurnProgress progress,
            AnswerStream out,
            Consumer<TurnEvent> sink) {
        if (e instanceof TurnFencedException fenced) return takenOver(request, user, progress, fenced, sink);
        TurnFailures.Interruption why = TurnFailures.interruption(e, request, progress);
        return fail(request, user, progress, out, why.status(), why.failure(), sink);
    }

    /**
     * Saves what the turn got to, with the failure's status, and reports the failure.
     *
     * @param out the turn's answer stream, or null when the turn failed before it had one
     */
    TurnOutcome fail(
            TurnRequest request,
            Message user,
            TurnProgress progress,
            AnswerStream out,
            MessageStatus status,
            TurnEvent.Failed failed,
            Consumer<TurnEvent> sink) {
        Message assistant = null;
        List<ToolCallRecord> calls = TurnRecorder.unlinked(request, progress.toolCalls);
        // what the client saw: text held back by filters or for after_ai was never shown and is not kept
        String shown = out == null ? progress.answer.toString() : out.shown();
        try {
            TurnRecorder.Recorded recorded = recorder.complete(request, progress, shown, status);
            assistant = recorded.message();
            calls = recorded.toolCalls();
        } catch (TurnFencedException e) {
            return takenOver(request, user, progress, e, sink);
        } catch (StoreUnavailableException e) {
            log.warn(
                    "request {}: could not save the {} turn: {}",
                    request.requestId(),
                    status.wireName(),
                    e.getMessage());
            pendingUsage.keep(request.requestId(), progress.usage, e);
            journal.close(progress.fence);
        } catch (RuntimeException e) {
            log.error("request {}: could not save the {} turn", request.requestId(), status.wireName(), e);
            pendingUsage.keep(request.requestId(), progress.usage, e);
            journal.close(progress.fence);
        }
        return end(sink, new TurnOutcome(user, assistant, calls, progress.totalUsage(), progress.model, failed));
    }

    /**
     * Ends a turn another instance took over (this one stopped renewing its lease): nothing more is written — the
     * other instance stores the answer, with the usage of every model call up to its checkpoint — and the client of
     * this instance is told to follow the turn elsewhere.
     */
    private static TurnOutcome takenOver(
            TurnRequest request, Message user, TurnProgress progress, TurnFencedException e, Consumer<TurnEvent> sink) {
        log.warn(
                "request {}: turn {} was taken over by another instance (lease epoch {} lost); this one stops",
                request.requestId(),
                progress.turnId,
                e.fence().epoch());
        return end(
                sink,
                new TurnOutcome(
                        user,
                        null,
                        TurnRecorder.unlinked(request, progress.toolCalls),
                        progress.totalUsage(),
                        progress.model,
                        TurnFailures.takenOver()));
    }

    /** Sends the outcome's terminal event and returns the outcome. */
    static TurnOutcome end(Consumer<TurnEvent> sink, TurnOutcome outcome) {
        sink.accept(outcome.terminal());
        return outcome;
    }

    static TurnEvent.Usage zeroUsage() {
        return new TurnEvent.Usage(0, 0, 0, BigDecimal.ZERO);
    }
}
