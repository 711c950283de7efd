package dev.baton.core.turn;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.ModuleAudit;
import dev.baton.core.hook.ModuleExtraction;
import dev.baton.core.id.Ids;
import dev.baton.core.tool.ToolCallOutcome;
import java.time.Clock;
import java.util.List;

/**
 * Writes a turn: the user message with its audit trail, then the end of the turn — assistant message, tool calls,
 * usage, audit records and extractions — each in the store's one transaction.
 */
final class TurnRecorder {
    private final ConversationStore store;
    private final Clock clock;

    /** What a blocked user message reads as in the conversation; the original is in the audit trail. */
    static final String BLOCKED_CONTENT = "[blocked]";

    /** What was written, with the ids the rows got. */
    record Recorded(Message message, List<ToolCallRecord> toolCalls, List<UsageRecord> usage) {}

    TurnRecorder(ConversationStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * Saves the user message as the before_ai hooks left it ({@code [blocked]} with status BLOCKED for a blocked
     * one), with their audit records and extractions, in one transaction.
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
        return store.appendUserMessage(
                message, auditRows(request, id, audit), extractionRows(request, id, extractions));
    }

    Recorded complete(TurnRequest request, TurnProgress progress, String content, MessageStatus status) {
        return complete(request, progress, content, status, List.of(), List.of());
    }

    /** Saves the end of the turn with the audit records and extractions of its answer, in one transaction. */
    Recorded complete(
            TurnRequest request,
            TurnProgress progress,
            String content,
            MessageStatus status,
            List<ModuleAudit> audit,
            List<ModuleExtraction> extractions) {
        String sessionId = request.session().id();
        Message assistant = new Message(
                Ids.newId(),
                sessionId,
                request.principal().userId(),
                0,
                MessageRole.ASSISTANT,
                content,
                status,
                progress.model,
                clock.instant());
        List<ToolCallRecord> calls = progress.toolCalls.stream()
                .map(o -> o.toRecord(sessionId, assistant.id()))
                .toList();
        List<UsageRecord> usage =
                progress.usage.stream().map(u -> linked(u, assistant.id())).toList();
        Message stored = store.completeTurn(
                request.principal().userId(),
                new TurnRecord(
                        assistant,
                        calls,
                        usage,
                        auditRows(request, assistant.id(), audit),
                        extractionRows(request, assistant.id(), extractions)));
        return new Recorded(stored, calls, usage);
    }

    /** The tool call rows of a turn whose assistant message could not be stored. */
    static List<ToolCallRecord> unlinked(TurnRequest request, List<ToolCallOutcome> outcomes) {
        return outcomes.stream()
                .map(o -> o.toRecord(request.session().id(), null))
                .toList();
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

    private static UsageRecord linked(UsageRecord u, String messageId) {
        return new UsageRecord(
                u.id(),
                u.tenantId(),
                u.userId(),
                u.sessionId(),
                messageId,
                u.provider(),
                u.model(),
                u.inputTokens(),
                u.outputTokens(),
                u.cachedInputTokens(),
                u.costUsd(),
                u.latencyMs(),
                u.createdAt());
    }
}
