package dev.baton.core.conversation;

import static dev.baton.core.conversation.InMemoryRows.checkBelongsToMessage;
import static dev.baton.core.conversation.InMemoryRows.checkBelongsToTurn;
import static dev.baton.core.conversation.InMemoryRows.truncate;
import static dev.baton.core.conversation.InMemoryRows.truncated;
import static dev.baton.core.conversation.InMemoryRows.withMessageId;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private final Map<String, Session> sessions = new LinkedHashMap<>();
    private final Map<String, List<Message>> messagesBySession = new HashMap<>();
    private final Set<String> messageIds = new HashSet<>();
    private final Map<String, ToolCallRecord> toolCalls = new LinkedHashMap<>();
    private final Map<String, UsageRecord> usage = new LinkedHashMap<>();
    private final Map<String, AuditRecord> audit = new LinkedHashMap<>();
    private final Map<String, ExtractionRecord> extractions = new LinkedHashMap<>();

    @Override
    public void createSession(Session session) {
        Objects.requireNonNull(session, "session");
        synchronized (lock) {
            if (sessions.containsKey(session.id())) {
                throw new IllegalStateException("session " + session.id() + " already exists");
            }
            sessions.put(session.id(), truncated(session));
        }
    }

    @Override
    public Optional<Session> findSession(String userId, String sessionId) {
        synchronized (lock) {
            return Optional.ofNullable(owned(userId, sessionId));
        }
    }

    @Override
    public SessionPage listSessions(String userId, SessionQuery query) {
        InMemorySessionCursor after = query.cursor() == null ? null : InMemorySessionCursor.parse(query.cursor());
        List<Session> found;
        synchronized (lock) {
            found = sessions.values().stream()
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
            Session session = ownedOrThrow(message.userId(), message.sessionId());
            checkNew(message, List.of(), List.of(), auditRows, found);
            Message stored = append(session, message, 0);
            auditRows.forEach(a -> audit.put(a.id(), a));
            found.forEach(x -> extractions.put(x.id(), x));
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
            List<Message> mine = messagesBySession.getOrDefault(sessionId, List.of()).stream()
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
            if (owned(userId, sessionId) == null) {
                return List.of();
            }
            return toolCalls.values().stream()
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
            if (owned(userId, sessionId) == null) {
                return List.of();
            }
            return toolCalls.values().stream()
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
                ownedOrThrow(userId, t.sessionId());
            }
            checkUnique(calls.stream().map(ToolCallRecord::id).toList(), toolCalls.keySet(), "tool call");
            calls.forEach(t -> toolCalls.put(t.id(), truncated(t)));
        }
    }

    @Override
    public Message completeTurn(String userId, TurnRecord turn) {
        Message answer = turn.assistantMessage();
        checkBelongsToTurn(userId, turn);
        checkBelongsToMessage(answer, turn.audit(), turn.extractions());
        synchronized (lock) {
            Session session = ownedOrThrow(userId, answer.sessionId());
            // a call recorded while the turn ran and not linked yet is linked now; any other id must be new
            List<ToolCallRecord> linked = new ArrayList<>();
            List<ToolCallRecord> fresh = new ArrayList<>();
            for (ToolCallRecord t : turn.toolCalls()) {
                ToolCallRecord recorded = toolCalls.get(t.id());
                boolean linkable = recorded != null
                        && recorded.messageId() == null
                        && recorded.sessionId().equals(answer.sessionId())
                        && linked.stream().noneMatch(l -> l.id().equals(t.id()));
                (linkable ? linked : fresh).add(t);
            }
            checkNew(answer, fresh, turn.usage(), turn.audit(), turn.extractions());
            Message stored = append(session, answer, turn.toolCalls().size());
            linked.forEach(t -> toolCalls.put(t.id(), withMessageId(toolCalls.get(t.id()), answer.id())));
            fresh.forEach(t -> toolCalls.put(t.id(), truncated(withMessageId(t, answer.id()))));
            turn.usage().forEach(u -> usage.put(u.id(), truncated(u)));
            turn.audit().forEach(a -> audit.put(a.id(), a));
            turn.extractions().forEach(x -> extractions.put(x.id(), x));
            return stored;
        }
    }

    @Override
    public void recordUsage(List<UsageRecord> rows) {
        synchronized (lock) {
            rows.forEach(u -> usage.putIfAbsent(u.id(), truncated(u)));
        }
    }

    @Override
    public Optional<Session> completeSession(String userId, String sessionId, Instant endedAt) {
        synchronized (lock) {
            Session s = owned(userId, sessionId);
            if (s == null) {
                return Optional.empty();
            }
            if (s.isActive()) {
                s = new Session(
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
                        s.endReason());
                sessions.put(s.id(), s);
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
            Session s = owned(userId, sessionId);
            if (s == null || !s.isActive()) {
                return Optional.empty();
            }
            int userMessages = (int) messagesBySession.getOrDefault(sessionId, List.of()).stream()
                    .filter(m -> m.role() == MessageRole.USER)
                    .count();
            if (!when.test(s, userMessages)) {
                return Optional.empty();
            }
            Session ended = new Session(
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
            sessions.put(s.id(), ended);
            return Optional.of(ended);
        }
    }

    /** Every user's active sessions, least recently active first (what a sweep looks at). */
    public List<Session> activeSessions() {
        synchronized (lock) {
            return sessions.values().stream()
                    .filter(Session::isActive)
                    .sorted(Comparator.comparing(Session::lastActivityAt).thenComparing(Session::id))
                    .toList();
        }
    }

    @Override
    public boolean deleteSession(String userId, String sessionId) {
        synchronized (lock) {
            if (owned(userId, sessionId) == null) {
                return false;
            }
            // usage and audit records outlive the conversation, as in the database stores
            sessions.remove(sessionId);
            List<Message> removed = messagesBySession.remove(sessionId);
            if (removed != null) {
                removed.forEach(m -> messageIds.remove(m.id()));
            }
            toolCalls.values().removeIf(t -> t.sessionId().equals(sessionId));
            extractions.values().removeIf(x -> x.sessionId().equals(sessionId));
            return true;
        }
    }

    // ---- inspection: what a database would show an operator, for tests and embedding programs

    /** Every tool call row of a session, linked to a message or not, in the order written; empty once deleted. */
    public List<ToolCallRecord> toolCallRows(String sessionId) {
        synchronized (lock) {
            return toolCalls.values().stream()
                    .filter(t -> t.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /** The usage rows of a session, in the order written; kept after the session is deleted. */
    public List<UsageRecord> usageRows(String sessionId) {
        synchronized (lock) {
            return usage.values().stream()
                    .filter(u -> u.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /** The audit records of a session, in the order written; kept after the session is deleted. */
    public List<AuditRecord> auditRows(String sessionId) {
        synchronized (lock) {
            return audit.values().stream()
                    .filter(a -> a.sessionId().equals(sessionId))
                    .toList();
        }
    }

    /** The extractions written with the messages of a session, in the order written. */
    public List<ExtractionRecord> extractionRows(String sessionId) {
        synchronized (lock) {
            return extractions.values().stream()
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
            return Optional.ofNullable(sessions.get(sessionId)).map(Session::tenantId);
        }
    }

    /** Stores extractions of asynchronous hooks, all or none. */
    void addExtractions(List<ExtractionRecord> found) {
        synchronized (lock) {
            checkUnique(found.stream().map(ExtractionRecord::id).toList(), extractions.keySet(), "extraction");
            found.forEach(x -> extractions.put(x.id(), x));
        }
    }

    // ---- internals; callers hold the lock

    private Session owned(String userId, String sessionId) {
        Session s = sessions.get(sessionId);
        return s != null && s.userId().equals(userId) ? s : null;
    }

    private Session ownedOrThrow(String userId, String sessionId) {
        Session s = owned(userId, sessionId);
        if (s == null) {
            throw new NoSuchElementException("session not found: " + sessionId);
        }
        return s;
    }

    /** Stores the message with the session's next seq and bumps the session's counts and last activity. */
    private Message append(Session s, Message m, int addedToolCalls) {
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
    private void checkNew(
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

    private static void checkUnique(List<String> ids, Set<String> stored, String what) {
        Set<String> seen = new HashSet<>();
        for (String id : ids) {
            if (stored.contains(id) || !seen.add(id)) {
                throw new IllegalStateException(what + " " + id + " already exists");
            }
        }
    }
}
