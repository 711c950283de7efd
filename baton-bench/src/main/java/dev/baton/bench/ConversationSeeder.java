package dev.baton.bench;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.id.Ids;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcConversationStore;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Puts a conversation's history straight into the store — the same {@link JdbcConversationStore} calls a turn
 * makes, without the model round trips — and cuts it back to a length between benchmark iterations.
 */
public final class ConversationSeeder {
    /** About 40 tokens: long enough that 20 messages are a realistic share of a 4000-token history budget. */
    private static final String USER_TEXT =
            "Please add a task to review chapter %d of the physics book before the exam,"
                    + " and remind me that the problem set for week %d is due on Friday afternoon.";

    private static final String ASSISTANT_TEXT = "Done — I've added “Review chapter %d” to your tasks. The week %d"
            + " problem set is due Friday afternoon; want me to add it as a separate task with high priority?";

    private final Database db;
    private final JdbcConversationStore store;
    private final Clock clock;

    public ConversationSeeder(Database db, Clock clock) {
        this.db = Objects.requireNonNull(db, "db");
        this.store = new JdbcConversationStore(db);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Appends {@code count} messages to the user's session, alternating user and assistant as turns do, in one
     * transaction (the store's own calls join it).
     */
    public void seed(String userId, String sessionId, int count) {
        if (count < 0) throw new IllegalArgumentException("count must be >= 0");
        db.inTransaction(c -> {
            for (int i = 0; i < count; i++) {
                int topic = i / 2 + 1;
                if (i % 2 == 0) {
                    store.appendUserMessage(
                            message(userId, sessionId, MessageRole.USER, USER_TEXT.formatted(topic, topic), null));
                } else {
                    Message answer = message(
                            userId,
                            sessionId,
                            MessageRole.ASSISTANT,
                            ASSISTANT_TEXT.formatted(topic, topic),
                            "simulator:default");
                    store.completeTurn(userId, new TurnRecord(answer, List.of(), List.of()));
                }
            }
            return null;
        });
    }

    /**
     * Cuts the session back to its first {@code keep} messages and removes what the removed turns wrote (tool
     * calls, usage, tasks of the user), so every benchmark iteration starts from the same conversation length.
     */
    public void truncate(String userId, String sessionId, int keep) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM message_audit WHERE message_id IN"
                    + " (SELECT id FROM messages WHERE session_id = ? AND seq > ?)")) {
                ps.setString(1, sessionId);
                ps.setLong(2, keep);
                ps.executeUpdate();
            }
            update(c, "DELETE FROM extractions WHERE session_id = ?", sessionId);
            update(c, "DELETE FROM tool_calls WHERE session_id = ?", sessionId);
            update(c, "DELETE FROM ai_usage WHERE session_id = ?", sessionId);
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM messages WHERE session_id = ? AND seq > ?")) {
                ps.setString(1, sessionId);
                ps.setLong(2, keep);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE sessions SET message_count = ?, tool_call_count = 0 WHERE id = ? AND user_id = ?")) {
                ps.setInt(1, keep);
                ps.setString(2, sessionId);
                ps.setString(3, userId);
                if (ps.executeUpdate() != 1)
                    throw new IllegalStateException("no session " + sessionId + " of " + userId);
            }
            update(c, "DELETE FROM tasks WHERE user_id = ?", userId);
            return null;
        });
    }

    /** How many messages the session holds now. */
    public long messageCount(String sessionId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM messages WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private Message message(String userId, String sessionId, MessageRole role, String content, String model) {
        return new Message(
                Ids.newId(), sessionId, userId, 0, role, content, MessageStatus.COMPLETE, model, clock.instant());
    }

    private static void update(java.sql.Connection c, String sql, String param) throws java.sql.SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, param);
            ps.executeUpdate();
        }
    }
}
