package dev.baton.learning.store;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.learning.Learner;
import dev.baton.learning.memory.ExpiredConversations;
import dev.baton.learning.memory.LearnerConversations;
import dev.baton.learning.memory.LearnerMessage;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The conversations (sessions) of the learning agents, found in the runtime's {@code sessions} table and deleted
 * through its {@link ConversationStore}, so a session goes with its messages, tool calls and extractions exactly as a
 * user's own delete does (its audit and usage rows stay). Deleting is idempotent: two instances purging the same
 * expired session both succeed.
 */
public final class JdbcAgentConversations implements LearnerConversations, ExpiredConversations {
    /** A reset deletes at most this many of one learner's conversations per query, until none is left. */
    private static final int PAGE = 200;

    private final Database db;
    private final ConversationStore store;
    private final List<String> agentIds;

    /** @param agentIds the agents whose conversations these are, e.g. [learning] */
    public JdbcAgentConversations(Database db, ConversationStore store, List<String> agentIds) {
        this.db = Objects.requireNonNull(db, "db");
        this.store = Objects.requireNonNull(store, "store");
        this.agentIds = List.copyOf(agentIds);
        if (this.agentIds.isEmpty()) throw new IllegalArgumentException("name at least one agent");
    }

    @Override
    public int deleteAll(Learner learner) {
        int deleted = 0;
        List<String> page;
        do {
            List<Param> params = new ArrayList<>(List.of(Param.text(learner.tenantId()), Param.text(learner.userId())));
            agentIds.forEach(a -> params.add(Param.text(a)));
            params.add(Sql.integer(PAGE));
            page = Sql.list(
                    db,
                    "SELECT id FROM sessions WHERE tenant_id = ? AND user_id = ? AND agent_id IN (" + marks() + ")"
                            + " ORDER BY id LIMIT ?",
                    params,
                    rs -> rs.getString("id"));
            for (String id : page) if (store.deleteSession(learner.userId(), id)) deleted++;
        } while (page.size() == PAGE);
        return deleted;
    }

    @Override
    public List<LearnerMessage> recentMessages(Learner learner, int limit) {
        List<Param> params = new ArrayList<>(List.of(Param.text(learner.tenantId()), Param.text(learner.userId())));
        agentIds.forEach(a -> params.add(Param.text(a)));
        Optional<String> running = Sql.one(
                db,
                "SELECT id FROM sessions WHERE tenant_id = ? AND user_id = ? AND agent_id IN (" + marks() + ")"
                        + " AND state = 'active' ORDER BY started_at DESC, id DESC LIMIT 1",
                params,
                rs -> rs.getString("id"));
        if (running.isEmpty()) return List.of();
        return store.recentMessages(learner.userId(), running.get(), limit).stream()
                .map(m -> new LearnerMessage(
                        m.sessionId(),
                        m.role().wireName(),
                        // as every listing shows it: what a module blocked is not shown again
                        m.status() == MessageStatus.BLOCKED ? "[blocked]" : m.content(),
                        m.createdAt()))
                .toList();
    }

    @Override
    public int purge(Instant inactiveSince, int limit) {
        List<Param> params = new ArrayList<>();
        agentIds.forEach(a -> params.add(Param.text(a)));
        params.add((ps, i) -> db.columns().setInstant(ps, i, inactiveSince));
        params.add(Sql.integer(limit));
        List<String[]> expired = Sql.list(
                db,
                "SELECT id, user_id FROM sessions WHERE agent_id IN (" + marks() + ") AND last_activity_at < ?"
                        + " ORDER BY last_activity_at LIMIT ?",
                params,
                rs -> new String[] {rs.getString("id"), rs.getString("user_id")});
        int deleted = 0;
        for (String[] session : expired) if (store.deleteSession(session[1], session[0])) deleted++;
        return deleted;
    }

    private String marks() {
        return String.join(", ", agentIds.stream().map(a -> "?").toList());
    }
}
