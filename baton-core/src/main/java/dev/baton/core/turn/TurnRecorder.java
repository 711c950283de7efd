package dev.baton.core.turn;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.context.RecentWindows;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.PausedTurnPendingException;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.ModuleAudit;
import dev.baton.core.hook.ModuleExtraction;
import dev.baton.core.id.Ids;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a turn: the user message with its audit trail, each step's tool calls as they finish, then the end of the
 * turn — assistant message, tool calls (linked), usage, audit records and extractions — in one transaction.
 */
final class TurnRecorder {
    private static final Logger log = LoggerFactory.getLogger(TurnRecorder.class);

    private final ConversationStore store;
    private final Clock clock;

    /** What a blocked user message reads as in the conversation; the original is in the audit trail. */
    static final String BLOCKED_CONTENT = "[blocked]";

    /** What was written, with the ids the rows got. */
    record Recorded(Message message, List<ToolCallRecord> toolCalls, List<UsageRecord> usage) {}

    /** Learns each message the turn stores, so the session's next turn finds its history here. */
    private final RecentWindows windows;

    TurnRecorder(ConversationStore store, Clock clock, RecentWindows windows) {
        this.store = store;
        this.clock = clock;
        this.windows = windows;
    }

    /**
     * Saves the user message as the before_ai hooks left it ({@code [blocked]} with status BLOCKED for a blocked
     * one), with their audit records and extractions, in one transaction. A request with a
     * {@link TurnRequest#supersession()} is refused while its session has a paused turn
     * ({@link PausedTurnPendingException}, nothing written): see {@link #supersedePaused}.
     */
    Message saveUser(
            TurnRequest request,
            String id,
            String content,
            MessageStatus status,
            List<ModuleAudit> audit,
            List<ModuleExtraction> extractions) {
        Message message = new Message(
                id,
                request.session().id(),
                request.principal().userId(),
                0,
                MessageRole.USER,
                content,
                status,
                null,
                clock.instant());
        List<AuditRecord> auditRows = auditRows(request, id, audit);
        List<ExtractionRecord> extractionRows = extractionRows(request, id, extractions);
        Message stored = request.supersession() == null
                ? store.appendUserMessage(message, auditRows, extractionRows)
                : store.appendUserMessageUnlessPaused(message, auditRows, extractionRows);
        windows.stored(stored);
        return stored;
    }

    /**
     * Ends the paused turn that refused the request's user message, and returns the request in its session as it is
     * now (its counts grew by the paused turn's answer and calls). The request still refuses a paused turn: none can
     * appear while the session is held for this turn, and if one did, saving the message fails instead of looping.
     */
    TurnRequest supersedePaused(TurnRequest request) {
        request.supersession().supersede();
        String sessionId = request.session().id();
        Session now = store.findSession(request.principal().userId(), sessionId)
                .orElseThrow(() -> new NoSuchElementException("session not found: " + sessionId));
        return request.inSession(now);
    }

    Recorded complete(TurnRequest request, TurnProgress progress, String content, MessageStatus status) {
        return complete(request, progress, content, status, List.of(), List.of());
    }

    /**
     * Saves the end of the turn with the audit records and extractions of its answer, in one transaction. Tool calls
     * already written by {@link #step} or {@link #record} are linked to the answer, not written again.
     */
    Recorded complete(
            TurnRequest request,
            TurnProgress progress,
            String content,
            MessageStatus status,
            List<ModuleAudit> audit,
            List<ModuleExtraction> extractions) {
        return complete(
                request,
                progress.model,
                progress.toolCalls,
                progress.usage,
                content,
                status,
                audit,
                extractions,
                progress.fence);
    }

    /** Saves the answer of a turn that never called the model (a before_ai block). */
    Recorded completeWithoutModel(TurnRequest request, String content) {
        return complete(
                request, null, List.of(), List.of(), content, MessageStatus.COMPLETE, List.of(), List.of(), null);
    }

    /**
     * Writes finished tool calls right away, unlinked, under row ids chosen before they ran (a held call's row gets
     * the id its approval was known by), so a turn that never ends (a crash) still leaves them in the audit trail. A
     * failed write is logged and otherwise ignored: the end of the turn writes whatever is not there yet.
     */
    List<TurnState.ToolCall> record(TurnRequest request, List<TurnState.ToolCall> calls) {
        if (calls.isEmpty()) {
            return calls;
        }
        String sessionId = request.session().id();
        try {
            store.recordToolCalls(
                    request.principal().userId(),
                    calls.stream().map(c -> c.toRecord(sessionId, null)).toList());
        } catch (RuntimeException e) {
            log.warn(
                    "request {}: could not write {} tool calls as they finished; the end of the turn will: {}",
                    request.requestId(),
                    calls.size(),
                    e.toString());
        }
        return calls;
    }

    /**
     * Writes a step of a leased turn ({@code progress.fence} not null): the step's finished tool calls, unlinked, and
     * the turn's state after it (as {@code out}'s filters leave it), in one transaction under the turn's fence; without a lease, the tool calls only (as
     * {@link #record}). A failed write is logged and otherwise ignored, as for {@link #record}: the last checkpoint
     * stored stays the one a takeover goes on from.
     *
     * @throws TurnFencedException when another instance took the turn over (nothing was written)
     */
    void step(TurnRequest request, TurnProgress progress, List<TurnState.ToolCall> calls, AnswerStream out) {
        step(request, progress, calls, out, null);
    }

    /**
     * As {@link #step(TurnRequest, TurnProgress, List, AnswerStream)}, knowing the checkpoint stored last under the
     * fence in this step ({@code stored}, e.g. by the step's transactional calls; null when none): a step with no
     * call left to write whose state is exactly that one writes nothing. The fence is then not checked again here;
     * the turn's next write checks it (a turn taken over meanwhile finds out one model call later).
     */
    void step(
            TurnRequest request,
            TurnProgress progress,
            List<TurnState.ToolCall> calls,
            AnswerStream out,
            String stored) {
        if (progress.fence == null) {
            record(request, calls);
            return;
        }
        String sessionId = request.session().id();
        try {
            String state = TurnStateCodec.encode(progress.snapshot(out.filters().snapshot()));
            if (calls.isEmpty() && state.equals(stored)) return;
            store.recordStep(
                    request.principal().userId(),
                    calls.stream().map(c -> c.toRecord(sessionId, null)).toList(),
                    progress.fence,
                    state);
        } catch (TurnFencedException e) {
            throw e;
        } catch (RuntimeException e) {
            log.warn(
                    "request {}: could not write the step of turn {}; the end of the turn will write its {} tool"
                            + " calls: {}",
                    request.requestId(),
                    progress.turnId,
                    calls.size(),
                    e.toString());
        }
    }

    /**
     * Where the transactional tool calls of the step about to run commit, with their rows and the turn's checkpoint;
     * for a turn that is not leased, nowhere (they run as any other).
     */
    TransactionalStep transactional(TurnRequest request, TurnProgress progress, AnswerStream out) {
        return transactional(request, progress, out, Map.of());
    }

    /** As {@link #transactional(TurnRequest, TurnProgress, AnswerStream)}, for calls whose rows' ids are known. */
    TransactionalStep transactional(
            TurnRequest request, TurnProgress progress, AnswerStream out, Map<String, String> recordIds) {
        return new TransactionalStep(store, request, progress, out, recordIds, clock);
    }

    private Recorded complete(
            TurnRequest request,
            String model,
            List<TurnState.ToolCall> toolCalls,
            List<UsageRecord> turnUsage,
            String content,
            MessageStatus status,
            List<ModuleAudit> audit,
            List<ModuleExtraction> extractions,
            TurnFence fence) {
        String sessionId = request.session().id();
        Message assistant = new Message(
                Ids.newId(),
                sessionId,
                request.principal().userId(),
                0,
                MessageRole.ASSISTANT,
                content,
                status,
                model,
                clock.instant());
        List<ToolCallRecord> calls = toolCalls.stream()
                .map(c -> c.toRecord(sessionId, assistant.id()))
                .toList();
        List<UsageRecord> usage =
                turnUsage.stream().map(u -> u.withMessageId(assistant.id())).toList();
        Message stored = store.completeTurn(
                request.principal().userId(),
                new TurnRecord(
                        assistant,
                        calls,
                        usage,
                        auditRows(request, assistant.id(), audit),
                        extractionRows(request, assistant.id(), extractions),
                        fence));
        windows.stored(stored);
        return new Recorded(stored, calls, usage);
    }

    /** The tool call rows of a turn whose assistant message could not be stored. */
    static List<ToolCallRecord> unlinked(TurnRequest request, List<TurnState.ToolCall> calls) {
        return calls.stream().map(c -> c.toRecord(request.session().id(), null)).toList();
    }

    private List<AuditRecord> auditRows(TurnRequest request, String messageId, List<ModuleAudit> audit) {
        return audit.stream()
                .map(a -> new AuditRecord(
                        Ids.newId(),
                        request.principal().tenantId(),
                        request.session().id(),
                        messageId,
                        a.audit().originalContent(),
                        a.module(),
                        a.audit().reason(),
                        a.audit().patternsMatched(),
                        clock.instant()))
                .toList();
    }

    private List<ExtractionRecord> extractionRows(
            TurnRequest request, String messageId, List<ModuleExtraction> extractions) {
        return extractions.stream()
                .map(x -> new ExtractionRecord(
                        Ids.newId(),
                        request.session().id(),
                        messageId,
                        x.module(),
                        x.extraction().type(),
                        x.extraction().data(),
                        clock.instant()))
                .toList();
    }
}
