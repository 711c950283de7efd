package dev.baton.core.conversation;

import static dev.baton.core.conversation.InMemoryRows.checkBelongsToMessage;
import static dev.baton.core.conversation.InMemoryRows.checkBelongsToTurn;
import static dev.baton.core.conversation.InMemoryRows.truncated;
import static dev.baton.core.conversation.InMemoryRows.withMessageId;
import static dev.baton.core.conversation.InMemoryTables.checkUnique;
import static dev.baton.core.conversation.InMemoryTables.completed;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * A {@link ConversationStore} in memory, for tests and small embedded programs ({@link InMemoryIdempotencyStore} keeps
 * idempotency keys the same way): nothing
 * survives the process. It keeps the rules of the JDBC stores, and the same contract suite checks both (baton-testkit's
 * {@code ConversationStoreContract}):
 *
 * <ul>
 *   <li>every read is scoped to the caller's user id; another user's session is indistinguishable from a missing one,
 *       and a write to it throws {@link NoSuchElementException};
 *   <li>messages get consecutive {@code seq}s per session, in the order they were written;
 *   <li>a write is all or nothing: a turn whose rows clash with stored ones (a duplicate id) changes nothing;
 *   <li>instants come back truncated to the microsecond, as the databases store them;
 *   <li>deleting a session keeps its usage rows and audit records.
 * </ul>
 *
 * <p>Thread-safe: every operation holds one lock, so operations are atomic and ordered as in a serializable database.
 * Memory grows with everything written; nothing is evicted.
 */
public final class InMemoryConversationStore implements ConversationStore {
    private final Object lock = new Object();
    private final InMemoryTables tables = new InMemoryTables();

    @Override
    public void createSession(Session session) {
        Objects.requireNonNull(session, "session");
        synchronized (lock) {
            if (tables.sessions.containsKey(session.id())) {
                throw new IllegalStateException("session " + session.id() + " already exists");
            }
            tables.sessions.put(session.id(), truncated(session));
        }
    }

    @Override
    public Optional<Session> findSession(String userId, String sessionId) {
        synchronized (lock) {
            return Optional.ofNullable(tables.owned(userId, sessionId));
        }
    }

    @Override
    public SessionPage listSessions(String userId, SessionQuery query) {
        InMemorySessionCursor after = query.cursor() == null ? null : InMemorySessionCursor.parse(query.cursor());
        List<Session> found;
        synchronized (lock) {
            found = tables.sessions.values().stream()
                    .filter(s -> s.userId().equals(userId))
                    .filter(s -> query.agentId() == null || s.agentId().equals(query.agentId()))
                    .filter(s -> query.state() == null || s.state() == query.state())
                    .filter(s -> after == null || after.comesBefore(s))
                    .sorted(InMemorySessionCursor.ORDER)
                    .limit(query.limit() + 1L)
                    .toList();
        }
        if (found.size() <= query.limit()) {
            return new SessionPage(found, null);
        }
        List<Session> page = found.subList(0, query.limit());
        return new SessionPage(page, InMemorySessionCursor.after(page.getLast()));
    }

    @Override
    public Message appendUserMessage(Message message, List<AuditRecord> auditRows, List<ExtractionRecord> found) {
        if (message.role() != MessageRole.USER) {
            throw new IllegalArgumentException("appendUserMessage takes a user message, got " + message.role());
        }
        checkBelongsToMessage(message, auditRows, found);
        synchronized (lock) {
            Session session = tables.ownedOrThrow(message.userId(), message.sessionId());
            tables.checkNew(message, List.of(), List.of(), auditRows, found);
            Message stored = tables.append(session, message, 0);
            auditRows.forEach(a -> tables.audit.put(a.id(), a));
            found.forEach(x -> tables.extractions.put(x.id(), x));
            return stored;
        }
    }

    @Override
    public List<Message> recentMessages(String userId, String sessionId, int limit) {
        return listMessages(userId, sessionId, null, limit);
    }

    @Override
    public List<Message> listMessages(String userId, String sessionId, Long beforeSeq, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        synchronized (lock) {
            List<Message> mine = tables.messagesBySession.getOrDefault(sessionId, List.of()).stream()
                    .filter(m -> m.userId().equals(userId))
                    .filter(m -> beforeSeq == null || m.seq() < beforeSeq)
                    .toList();
            return List.copyOf(mine.subList(Math.max(0, mine.size() - limit), mine.size()));
        }
    }

    @Override
    public List<ToolCallRecord> toolCallsOf(String userId, String sessionId, List<String> messageIds) {
        if (messageIds.isEmpty()) {
            return List.of();
        }
        Set<String> wanted = Set.copyOf(messageIds);
        synchronized (lock) {
            if (tables.owned(userId, sessionId) == null) {
                return List.of();
            }
            return tables.toolCalls.values().stream()
                    .filter(t -> t.sessionId().equals(sessionId) && wanted.contains(t.messageId()))
                    .sorted(Comparator.comparing(ToolCallRecord::startedAt).thenComparing(ToolCallRecord::id))
                    .toList();
        }
    }

    @Override
    public List<ToolCallRecord> toolCallsWithIds(String userId, String sessionId, List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        Set<String> wanted = Set.copyOf(ids);
        synchronized (lock) {
            if (tables.owned(userId, sessionId) == null) {
                return List.of();
            }
            return tables.toolCalls.values().stream()
                    .filter(t -> t.sessionId().equals(sessionId) && wanted.contains(t.id()))
                    .sorted(Comparator.comparing(ToolCallRecord::startedAt).thenComparing(ToolCallRecord::id))
                    .toList();
        }
    }

    @Override
    public void recordToolCalls(String userId, List<ToolCallRecord> calls) {
        for (ToolCallRecord t : calls) {
            if (t.messageId() != null) {
                throw new IllegalArgumentException("tool call " + t.id() + " is recorded before its message exists");
            }
        }
        synchronized (lock) {
            for (ToolCallRecord t : calls) {
                tables.ownedOrThrow(userId, t.sessionId());
            }
            checkUnique(calls.stream().map(ToolCallRecord::id).toList(), tables.toolCalls.keySet(), "tool call");
            calls.forEach(t -> tables.toolCalls.put(t.id(), truncated(t)));
        }
    }

    @Override
    public Message completeTurn(String userId, TurnRecord turn) {
        Message answer = turn.assistantMessage();
        checkBelongsToTurn(userId, turn);
        checkBelongsToMessage(answer, turn.audit(), turn.extractions());
        synchronized (lock) {
            Session session = tables.ownedOrThrow(userId, answer.sessionId());
            // a call recorded while the turn ran and not linked yet is linked now; any other id must be new
            List<ToolCallRecord> linked = new ArrayList<>();
            List<ToolCallRecord> fresh = new ArrayList<>();
            for (ToolCallRecord t : turn.toolCalls()) {
                ToolCallRecord recorded = tables.toolCalls.get(t.id());
                boolean linkable = recorded != null
                        && recorded.messageId() == null
                        && recorded.sessionId().equals(answer.sessionId())
                        && linked.stream().noneMatch(l -> l.id().equals(t.id()));
                (linkable ? linked : fresh).add(t);
            }
            tables.checkNew(answer, fresh, turn.usage(), turn.audit(), turn.extractions());
            Message stored = tables.append(session, answer, turn.toolCalls().size());
            linked.forEach(t -> tables.toolCalls.put(t.id(), withMessageId(tables.toolCalls.get(t.id()), answer.id())));
            fresh.forEach(t -> tables.toolCalls.put(t.id(), truncated(withMessageId(t, answer.id()))));
            turn.usage().forEach(u -> tables.usage.put(u.id(), truncated(u)));
            turn.audit().forEach(a -> tables.audit.put(a.id(), a));
            turn.extractions().forEach(x -> tables.extractions.put(x.id(), x));
            return stored;
        }
    }

    @Override
    public void recordUsage(List<UsageRecord> rows) {
        synchronized (lock) {
            rows.forEach(u -> tables.usage.putIfAbsent(u.id(), truncated(u)));
        }
    }

    @Override
    public Optional<Session> completeSession(String userId, String sessionId, Instant endedAt) {
        synchronized (lock) {
            Session s = tables.owned(userId, sessionId);
            if (s == null) {
                return Optional.empty();
            }
            if (s.isActive()) {
                s = completed(s, endedAt, s.endReason());
                tables.sessions.put(s.id(), s);
            }
            return Optional.of(s);
        }
    }

    /**
     * Completes the user's active session at {@code endedAt} with {@code reason} if {@code when} holds for it, given
     * the session and how many user messages it holds; atomic, so of two calls for one session only the one that
     * changed it gets it back. What an in-memory session lifecycle store (baton-runtime's) completes sessions with.
     *
     * @return the completed session; empty when it is not the user's, not active, or {@code when} did not hold
     */
    public Optional<Session> completeSessionIf(
            String userId, String sessionId, Instant endedAt, String reason, BiPredicate<Session, Integer> when) {
        Objects.requireNonNull(reason, "reason");
        synchronized (lock) {
            Session s = tables.owned(userId, sessionId);
            if (s == null || !s.isActive()) {
                return Optional.empty();
            }
            int userMessages = (int) tables.messagesBySession.getOrDefault(sessionId, List.of()).stream()
                    .filter(m -> m.role() == MessageRole.USER)
                    .count();
            if (!when.test(s, userMessages)) {
                return Optional.empty();
            }
            Session ended = completed(s, endedAt, reason);
            tables.sessions.put(s.id(), ended);
            return Optional.of(ended);
        }
    }

    /** Every user's active sessions, least recently active first (what a sweep looks at). */
    public List<Session> activeSessions() {
        synchronized (lock) {
            return tables.sessions.values().stream()
                    .filter(Session::isActive)
                    .sorted(Comparator.comparing(Session::lastActivityAt).thenComparing(Session::id))
                    .toList();
        }
    }

    @Override
    public boolean deleteSession(String userId, String sessionId) {
        synchronized (lock) {
            if (tables.owned(userId, sessionId) == null) {
                return false;
            }
            tables.removeSession(sessionId);
            return true;
        }
    }

    // ---- inspection: what a database would show an operator, for tests and embedding programs

    /** Every tool call row of a session, linked to a message or not, in the order written; empty once deleted. */
    public List<ToolCallRecord> toolCallRows(String sessionId) {
        synchronized (lock) {
            return tables.toolCalls.values().stream()
                    .filter(t -> t.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /** The usage rows of a session, in the order written; kept after the session is deleted. */
    public List<UsageRecord> usageRows(String sessionId) {
        synchronized (lock) {
            return tables.usage.values().stream()
                    .filter(u -> u.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /** The audit records of a session, in the order written; kept after the session is deleted. */
    public List<AuditRecord> auditRows(String sessionId) {
        synchronized (lock) {
            return tables.audit.values().stream()
                    .filter(a -> a.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /** The extractions written with the messages of a session, in the order written. */
    public List<ExtractionRecord> extractionRows(String sessionId) {
        synchronized (lock) {
            return tables.extractions.values().stream()
                    .filter(x -> x.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /**
     * The audit trail and extractions this store keeps, as an {@link AuditStore} (for hook modules, and their
     * administrators' reads).
     */
    public AuditStore auditStore() {
        return new InMemoryAuditStore(this);
    }

    /** The tenant of a stored session, whoever's it is. */
    Optional<String> tenantOf(String sessionId) {
        synchronized (lock) {
            return Optional.ofNullable(tables.sessions.get(sessionId)).map(Session::tenantId);
        }
    }

    /** Stores extractions of asynchronous hooks, all or none. */
    void addExtractions(List<ExtractionRecord> found) {
        synchronized (lock) {
            checkUnique(found.stream().map(ExtractionRecord::id).toList(), tables.extractions.keySet(), "extraction");
            found.forEach(x -> tables.extractions.put(x.id(), x));
        }
    }
}
