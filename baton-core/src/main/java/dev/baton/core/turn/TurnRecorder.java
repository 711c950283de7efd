package dev.baton.core.turn;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.id.Ids;
import dev.baton.core.tool.ToolCallOutcome;
import java.time.Clock;
import java.util.List;

/** Writes the end of a turn — assistant message, tool calls, usage — in the store's one transaction. */
final class TurnRecorder {
    private final ConversationStore store;
    private final Clock clock;

    /** What was written, with the ids the rows got. */
    record Recorded(Message message, List<ToolCallRecord> toolCalls, List<UsageRecord> usage) {}

    TurnRecorder(ConversationStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    Message saveUser(TurnRequest request) {
        Message message = new Message(
                Ids.newId(),
                request.session().id(),
                request.principal().userId(),
                0,
                MessageRole.USER,
                request.userContent(),
                MessageStatus.COMPLETE,
                null,
                clock.instant());
        return store.appendUserMessage(message);
    }

    Recorded complete(TurnRequest request, TurnProgress progress, String content, MessageStatus status) {
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
        Message stored = store.completeTurn(request.principal().userId(), new TurnRecord(assistant, calls, usage));
        return new Recorded(stored, calls, usage);
    }

    /** The tool call rows of a turn whose assistant message could not be stored. */
    static List<ToolCallRecord> unlinked(TurnRequest request, List<ToolCallOutcome> outcomes) {
        return outcomes.stream()
                .map(o -> o.toRecord(request.session().id(), null))
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
                u.costUsd(),
                u.latencyMs(),
                u.createdAt());
    }
}
