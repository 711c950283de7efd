package dev.baton.core.testing;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** A conversation store in memory, for core unit tests. Session listing and deletion are not needed there. */
public final class InMemoryConversationStore implements ConversationStore {
    private final List<Message> messages = new CopyOnWriteArrayList<>();
    private final List<TurnRecord> turns = new CopyOnWriteArrayList<>();
    /** Every audit record written, with user messages or turns. */
    public final List<AuditRecord> audit = new CopyOnWriteArrayList<>();
    /** Every extraction written with user messages or turns. */
    public final List<ExtractionRecord> extractions = new CopyOnWriteArrayList<>();
    /** The limit of every recentMessages query, so tests can check the query stays bounded. */
    public final List<Integer> recentQueries = new CopyOnWriteArrayList<>();

    @Override
    public void createSession(Session session) {}

    @Override
    public Optional<Session> findSession(String userId, String sessionId) {
        return Optional.empty();
    }

    @Override
    public SessionPage listSessions(String userId, SessionQuery query) {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized Message appendUserMessage(Message m, List<AuditRecord> audit, List<ExtractionRecord> found) {
        this.audit.addAll(audit);
        this.extractions.addAll(found);
        return append(m);
    }

    /** Adds a message of any role directly, as an earlier turn would have. */
    public synchronized Message append(Message m) {
        Message stored = new Message(
                m.id(),
                m.sessionId(),
                m.userId(),
                messages.size() + 1,
                m.role(),
                m.content(),
                m.status(),
                m.model(),
                m.createdAt());
        messages.add(stored);
        return stored;
    }

    @Override
    public List<Message> recentMessages(String userId, String sessionId, int limit) {
        recentQueries.add(limit);
        List<Message> mine = mine(userId, sessionId);
        return List.copyOf(mine.subList(Math.max(0, mine.size() - limit), mine.size()));
    }

    @Override
    public List<Message> listMessages(String userId, String sessionId, Long beforeSeq, int limit) {
        List<Message> mine = mine(userId, sessionId).stream()
                .filter(m -> beforeSeq == null || m.seq() < beforeSeq)
                .toList();
        return List.copyOf(mine.subList(Math.max(0, mine.size() - limit), mine.size()));
    }

    @Override
    public List<ToolCallRecord> toolCallsOf(String userId, String sessionId, List<String> messageIds) {
        return turns.stream()
                .flatMap(t -> t.toolCalls().stream())
                .filter(c -> c.sessionId().equals(sessionId) && messageIds.contains(c.messageId()))
                .toList();
    }

    @Override
    public synchronized Message completeTurn(String userId, TurnRecord turn) {
        turns.add(turn);
        audit.addAll(turn.audit());
        extractions.addAll(turn.extractions());
        return append(turn.assistantMessage());
    }

    @Override
    public Optional<Session> completeSession(String userId, String sessionId, Instant endedAt) {
        return Optional.empty();
    }

    @Override
    public boolean deleteSession(String userId, String sessionId) {
        return false;
    }

    public List<TurnRecord> turns() {
        return List.copyOf(turns);
    }

    private List<Message> mine(String userId, String sessionId) {
        List<Message> mine = new ArrayList<>();
        for (Message m : messages) {
            if (m.userId().equals(userId) && m.sessionId().equals(sessionId)) {
                mine.add(m);
            }
        }
        return mine;
    }
}
