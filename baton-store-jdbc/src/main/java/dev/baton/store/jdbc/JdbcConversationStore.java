package dev.baton.store.jdbc;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.conversation.StepRecord;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@link ConversationStore} on SQLite or PostgreSQL.
 *
 * <p>Every read and write is scoped to the caller's user id; another user's session is indistinguishable
 * from a missing one. Writes to a session that is not the user's throw {@link SessionNotFoundException}.
 * Tool calls of a running turn are written as they finish ({@link #recordToolCalls}: one INSERT per step) with no
 * message id; the end of the turn links them with one UPDATE and inserts only calls that were not recorded.
 * Instants come back truncated to the microsecond. The store does not police session state (a turn that
 * finishes after its session was completed is still saved); the orchestrator decides what to accept.
 *
 * <p>{@link #deleteSession} removes the session, its messages, tool calls and extractions, but keeps its
 * {@code ai_usage} rows (with their now dangling session and message ids): spending counts against budgets and
 * bills whether or not the conversation is kept; and its {@code message_audit} rows: the audit trail must survive
 * a user deleting the conversation (the table refuses UPDATE and DELETE).
 */
public final class JdbcConversationStore implements ConversationStore {
    private final Database db;
    private final SessionRows sessions;
    private final MessageRows messages;
    private final MessageAppends appends;
    private final ToolCallRows toolCalls;
    private final UsageRows usage;
    private final AuditRows auditRows;
    private final PostgresTurnWrites postgres;

    public JdbcConversationStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        ColumnCodec codec = db.columns();
        this.sessions = new SessionRows(codec);
        this.messages = new MessageRows(codec);
        this.appends = new MessageAppends(db.dialect(), sessions, messages);
        this.toolCalls = new ToolCallRows(codec);
        this.usage = new UsageRows(db.dialect());
        this.auditRows = new AuditRows(codec);
        this.postgres = new PostgresTurnWrites(db, sessions, appends, toolCalls, usage, auditRows);
    }

    @Override
    public void createSession(Session session) {
        db.inTransaction(c -> {
            sessions.insert(c, session);
            return null;
        });
    }

    @Override
    public Optional<Session> findSession(String userId, String sessionId) {
        return db.withConnection(c -> sessions.find(c, userId, sessionId));
    }

    @Override
    public SessionPage listSessions(String userId, SessionQuery query) {
        SessionCursor after = query.cursor() == null ? null : SessionCursor.parse(query.cursor());
        List<Session> found = db.withConnection(c -> sessions.page(c, userId, query, after));
        if (found.size() <= query.limit()) return new SessionPage(found, null);
        List<Session> page = found.subList(0, query.limit());
        return new SessionPage(page, SessionCursor.after(page.getLast()));
    }

    @Override
    public Message appendUserMessage(Message message, List<AuditRecord> audit, List<ExtractionRecord> extractions) {
        return appendUser(message, audit, extractions, false);
    }

    /** Sees the paused turns of a {@link JdbcApprovalStore} on the same database (see {@link #database}). */
    @Override
    public Message appendUserMessageUnlessPaused(
            Message message, List<AuditRecord> audit, List<ExtractionRecord> extractions) {
        return appendUser(message, audit, extractions, true);
    }

    /** The database this store writes to: an approval store on the same one has its paused turns seen here. */
    Database database() {
        return db;
    }

    private Message appendUser(
            Message message, List<AuditRecord> audit, List<ExtractionRecord> extractions, boolean unlessPaused) {
        if (message.role() != MessageRole.USER)
            throw new IllegalArgumentException("appendUserMessage takes a user message, got " + message.role());
        checkBelongsToMessage(message, audit, extractions);
        // a turn's first write, before the model is called: alone, it is one statement on PostgreSQL
        if (audit.isEmpty() && extractions.isEmpty())
            return db.inSharedStatement(c -> appends.append(c, message, 0, unlessPaused));
        return db.inSharedTransaction(c -> {
            Message stored = appends.append(c, message, 0, unlessPaused);
            auditRows.insertAudit(c, List.copyOf(audit));
            auditRows.insertExtractions(c, List.copyOf(extractions));
            return stored;
        });
    }

    @Override
    public List<Message> recentMessages(String userId, String sessionId, int limit) {
        return listMessages(userId, sessionId, null, limit);
    }

    @Override
    public List<Message> listMessages(String userId, String sessionId, Long beforeSeq, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be positive");
        return db.withConnection(c -> messages.newest(c, userId, sessionId, beforeSeq, limit));
    }

    @Override
    public List<ToolCallRecord> toolCallsOf(String userId, String sessionId, List<String> messageIds) {
        if (messageIds.isEmpty()) return List.of();
        return db.withConnection(c -> toolCalls.ofMessages(c, userId, sessionId, List.copyOf(messageIds)));
    }

    @Override
    public List<ToolCallRecord> toolCallsWithIds(String userId, String sessionId, List<String> ids) {
        if (ids.isEmpty()) return List.of();
        return db.withConnection(c -> toolCalls.withIds(c, userId, sessionId, List.copyOf(ids)));
    }

    @Override
    public void recordToolCalls(String userId, List<ToolCallRecord> calls) {
        for (ToolCallRecord t : calls) {
            if (t.messageId() != null)
                throw new IllegalArgumentException("tool call " + t.id() + " is recorded before its message exists");
        }
        if (calls.isEmpty()) return;
        SqlWork<Void> insert = c -> {
            toolCalls.insertOwned(c, userId, List.copyOf(calls));
            return null;
        };
        // one call is one statement; several are a batch that must not be half written
        if (calls.size() == 1) db.inSharedStatement(insert);
        else db.inSharedTransaction(insert);
    }

    /**
     * Writes the step's tool calls and the turn's checkpoint in one transaction (one UPDATE of the turn's
     * {@code running_turns} row, fenced by its epoch, and the calls' INSERT).
     */
    @Override
    public void recordStep(String userId, List<ToolCallRecord> calls, TurnFence fence, String state) {
        if (fence == null) {
            recordToolCalls(userId, calls);
            return;
        }
        for (ToolCallRecord t : calls) {
            if (t.messageId() != null)
                throw new IllegalArgumentException("tool call " + t.id() + " is recorded before its message exists");
        }
        SqlWork<Void> step = c -> {
            // the fence first: a turn another instance took over writes nothing
            RunningTurnRows.checkpoint(c, fence, state);
            if (!calls.isEmpty()) toolCalls.insertOwned(c, userId, List.copyOf(calls));
            return null;
        };
        if (calls.isEmpty()) db.inSharedStatement(step);
        else db.inSharedTransaction(step);
    }

    /**
     * Runs the work in a transaction on this thread: the domain's writes through this {@link Database} join it (see
     * {@link Database#inTransaction}), then the step's calls are inserted and, last, the checkpoint is written under
     * the fence, so on PostgreSQL the turn's row is locked only for the commit (not while the tool works, which would
     * hold up the heartbeat renewing this instance's leases). Without a fence the calls' rows alone commit with the
     * work's writes.
     */
    @Override
    public void recordStepWith(String userId, TurnFence fence, Supplier<StepRecord> work) {
        try {
            db.inTransaction(c -> {
                StepRecord step = work.get();
                if (step == null) throw new NothingToKeep();
                if (fence != null && step.state() == null)
                    throw new IllegalArgumentException("a leased turn's step needs its checkpoint");
                for (ToolCallRecord t : step.calls()) {
                    if (t.messageId() != null)
                        throw new IllegalArgumentException(
                                "tool call " + t.id() + " is recorded before its message exists");
                }
                String commit = db.commitWithLastStatement();
                if (fence == null) {
                    // the record alone is last: on PostgreSQL it carries the COMMIT, one round trip less
                    toolCalls.insertOwnedLast(c, userId, step.calls(), commit);
                } else if (commit.isEmpty()) {
                    toolCalls.insertOwned(c, userId, step.calls());
                    RunningTurnRows.checkpoint(c, fence, step.state());
                } else {
                    postgres.recordStep(c, userId, fence, step, commit);
                }
                return null;
            });
        } catch (NothingToKeep rolledBack) {
            // the work's writes are rolled back: nothing of the step is kept
        } catch (PostgresTurnWrites.StepRefused refused) {
            // rolled back, the tool's writes with it
            throw postgres.whyRefused(userId, fence, refused.step());
        }
    }

    /** Rolls back a step's transaction whose work kept nothing. */
    private static final class NothingToKeep extends RuntimeException {
        NothingToKeep() {
            super(null, null, false, false);
        }
    }

    @Override
    public Message completeTurn(String userId, TurnRecord turn) {
        Message answer = turn.assistantMessage();
        checkBelongsToTurn(userId, turn);
        checkBelongsToMessage(answer, turn.audit(), turn.extractions());
        List<ToolCallRecord> calls = turn.toolCalls().stream()
                .map(t -> withMessageId(t, answer.id()))
                .toList();
        if (postgres.fitsOneRoundTrip(calls)) {
            try {
                return db.inSharedTransaction(c -> postgres.completeTurn(c, turn, calls));
            } catch (StatementChain.CheckFailed e) {
                // the fence no longer holds, or the session is not the user's: nothing was written, and the
                // statements one by one below say which, as they always did
            }
        }
        return db.inSharedTransaction(c -> {
            // the lease ends with the answer, and only while it holds: a turn taken over stores its answer once
            if (turn.fence() != null) RunningTurnRows.end(c, turn.fence());
            Message stored = appends.append(c, answer, calls.size());
            // calls recorded while the turn ran are linked (one UPDATE); only the others are inserted
            Set<String> linked = calls.isEmpty()
                    ? Set.of()
                    : toolCalls.link(
                            c,
                            answer.sessionId(),
                            answer.id(),
                            calls.stream().map(ToolCallRecord::id).toList());
            Set<String> toSkip = new HashSet<>(linked);
            List<ToolCallRecord> unrecorded = new ArrayList<>();
            for (ToolCallRecord t : calls) {
                // each linked row stands for one call: a repeated id is inserted, and refused as a duplicate
                if (!toSkip.remove(t.id())) unrecorded.add(t);
            }
            toolCalls.insertAll(c, unrecorded);
            auditRows.insertAudit(c, turn.audit());
            auditRows.insertExtractions(c, turn.extractions());
            // last, and committing with it: it updates the tenant's spending totals, which every turn of the tenant
            // waits for until this transaction ends
            usage.insertAllLast(c, turn.usage(), db.commitWithLastStatement());
            return stored;
        });
    }

    @Override
    public void recordUsage(List<UsageRecord> rows) {
        if (rows.isEmpty()) return;
        db.inSharedTransaction(c -> {
            usage.insertAll(c, List.copyOf(rows), true);
            return null;
        });
    }

    @Override
    public Optional<Session> completeSession(String userId, String sessionId, Instant endedAt) {
        ColumnCodec codec = db.columns();
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE sessions SET state = ?, ended_at = ? WHERE id = ? AND user_id = ? AND state = ?")) {
                ps.setString(1, SessionState.COMPLETED.wireName());
                codec.setInstant(ps, 2, endedAt);
                ps.setString(3, sessionId);
                ps.setString(4, userId);
                ps.setString(5, SessionState.ACTIVE.wireName());
                ps.executeUpdate();
            }
            // Completing an already completed session returns it unchanged, keeping its first endedAt.
            return sessions.find(c, userId, sessionId);
        });
    }

    @Override
    public boolean deleteSession(String userId, String sessionId) {
        return db.inTransaction(c -> {
            if (!sessions.exists(c, userId, sessionId)) return false;
            // Explicit deletes rather than relying on ON DELETE CASCADE, which SQLite honours only with foreign_keys
            // on. message_audit is not among them: the audit trail outlives the conversation (and refuses deletes).
            // a paused turn's state holds the conversation; its approval records stay, as audit
            for (String sql : List.of(
                    "DELETE FROM paused_turns WHERE session_id = ?",
                    // a running turn's checkpoint holds it too; the turn, fenced, then writes nothing more
                    "DELETE FROM running_turns WHERE session_id = ?",
                    // digests of the conversation's history (the OpenAI-compatible door's)
                    "DELETE FROM history_keys WHERE session_id = ?",
                    "DELETE FROM extractions WHERE session_id = ?",
                    "DELETE FROM tool_calls WHERE session_id = ?",
                    "DELETE FROM messages WHERE session_id = ?",
                    "DELETE FROM sessions WHERE id = ?")) {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setString(1, sessionId);
                    ps.executeUpdate();
                }
            }
            return true;
        });
    }

    /** Refuses audit and extraction rows that would land on another message or session. */
    private static void checkBelongsToMessage(
            Message message, List<AuditRecord> audit, List<ExtractionRecord> extractions) {
        for (AuditRecord a : audit) {
            if (!a.messageId().equals(message.id()) || !a.sessionId().equals(message.sessionId()))
                throw new IllegalArgumentException("audit record " + a.id() + " belongs to another message");
        }
        for (ExtractionRecord x : extractions) {
            if (!x.sessionId().equals(message.sessionId()))
                throw new IllegalArgumentException("extraction " + x.id() + " belongs to another session");
        }
    }

    /** Refuses a turn whose rows would land in another user's or another session's data. */
    private static void checkBelongsToTurn(String userId, TurnRecord turn) {
        Message answer = turn.assistantMessage();
        if (answer.role() != MessageRole.ASSISTANT)
            throw new IllegalArgumentException("a turn ends with an assistant message, got " + answer.role());
        if (!answer.userId().equals(userId))
            throw new IllegalArgumentException("assistant message belongs to another user");
        for (ToolCallRecord t : turn.toolCalls()) {
            if (!t.sessionId().equals(answer.sessionId()))
                throw new IllegalArgumentException("tool call " + t.id() + " belongs to another session");
            if (t.messageId() != null && !t.messageId().equals(answer.id())) {
                throw new IllegalArgumentException("tool call " + t.id() + " belongs to another message");
            }
        }
        for (UsageRecord u : turn.usage()) {
            if (!u.userId().equals(userId) || !u.sessionId().equals(answer.sessionId())) {
                throw new IllegalArgumentException("usage " + u.id() + " belongs to another user or session");
            }
        }
    }

    private static ToolCallRecord withMessageId(ToolCallRecord t, String messageId) {
        if (messageId.equals(t.messageId())) return t;
        return new ToolCallRecord(
                t.id(),
                t.sessionId(),
                messageId,
                t.toolName(),
                t.toolArgs(),
                t.toolResult(),
                t.state(),
                t.errorMessage(),
                t.startedAt(),
                t.completedAt(),
                t.durationMs());
    }
}
