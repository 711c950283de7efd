package dev.baton.core.conversation;

import static dev.baton.core.conversation.InMemoryRows.truncate;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The rows an {@link InMemoryConversationStore} holds, as a database's tables would, with the ownership and
 * uniqueness checks on them and the append that numbers messages. Not thread-safe: the store holds its lock around
 * every use, so each operation sees and leaves the tables consistent.
 */
final class InMemoryTables {
    final Map<String, Session> sessions = new LinkedHashMap<>();
    final Map<String, List<Message>> messagesBySession = new HashMap<>();
    final Set<String> messageIds = new HashSet<>();
    final Map<String, ToolCallRecord> toolCalls = new LinkedHashMap<>();
    final Map<String, UsageRecord> usage = new LinkedHashMap<>();
    final Map<String, AuditRecord> audit = new LinkedHashMap<>();
    final Map<String, ExtractionRecord> extractions = new LinkedHashMap<>();

    Session owned(String userId, String sessionId) {
        Session s = sessions.get(sessionId);
        return s != null && s.userId().equals(userId) ? s : null;
    }

    Session ownedOrThrow(String userId, String sessionId) {
        Session s = owned(userId, sessionId);
        if (s == null) {
            throw new NoSuchElementException("session not found: " + sessionId);
        }
        return s;
    }

    /** Removes a session with its messages, tool calls and extractions. */
    void removeSession(String sessionId) {
        // usage and audit records outlive the conversation, as in the database stores
        sessions.remove(sessionId);
        List<Message> removed = messagesBySession.remove(sessionId);
        if (removed != null) {
            removed.forEach(m -> messageIds.remove(m.id()));
        }
        toolCalls.values().removeIf(t -> t.sessionId().equals(sessionId));
        extractions.values().removeIf(x -> x.sessionId().equals(sessionId));
    }

    /** The session completed at {@code endedAt} (truncated as the databases store it) with {@code reason}. */
    static Session completed(Session s, Instant endedAt, String reason) {
        return new Session(
                s.id(),
                s.tenantId(),
                s.userId(),
                s.agentId(),
                s.assignmentId(),
                SessionState.COMPLETED,
                s.startedAt(),
                truncate(endedAt),
                s.lastActivityAt(),
                s.messageCount(),
                s.toolCallCount(),
                reason);
    }

    /** Stores the message with the session's next seq and bumps the session's counts and last activity. */
    Message append(Session s, Message m, int addedToolCalls) {
        Message stored = new Message(
                m.id(),
                m.sessionId(),
                m.userId(),
                s.messageCount() + 1L,
                m.role(),
                m.content(),
                m.status(),
                m.model(),
                truncate(m.createdAt()));
        sessions.put(
                s.id(),
                new Session(
                        s.id(),
                        s.tenantId(),
                        s.userId(),
                        s.agentId(),
                        s.assignmentId(),
                        s.state(),
                        s.startedAt(),
                        s.endedAt(),
                        stored.createdAt(),
                        s.messageCount() + 1,
                        s.toolCallCount() + addedToolCalls,
                        s.endReason()));
        messagesBySession.computeIfAbsent(s.id(), id -> new ArrayList<>()).add(stored);
        messageIds.add(stored.id());
        return stored;
    }

    /** Refuses a write whose rows would take ids already stored (or repeated within the write). */
    void checkNew(
            Message message,
            List<ToolCallRecord> calls,
            List<UsageRecord> usageRows,
            List<AuditRecord> auditRows,
            List<ExtractionRecord> found) {
        checkUnique(List.of(message.id()), messageIds, "message");
        checkUnique(calls.stream().map(ToolCallRecord::id).toList(), toolCalls.keySet(), "tool call");
        checkUnique(usageRows.stream().map(UsageRecord::id).toList(), usage.keySet(), "usage row");
        checkUnique(auditRows.stream().map(AuditRecord::id).toList(), audit.keySet(), "audit record");
        checkUnique(found.stream().map(ExtractionRecord::id).toList(), extractions.keySet(), "extraction");
    }

    static void checkUnique(List<String> ids, Set<String> stored, String what) {
        Set<String> seen = new HashSet<>();
        for (String id : ids) {
            if (stored.contains(id) || !seen.add(id)) {
                throw new IllegalStateException(what + " " + id + " already exists");
            }
        }
    }
}
