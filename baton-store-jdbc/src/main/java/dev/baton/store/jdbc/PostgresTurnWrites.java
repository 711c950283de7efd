package dev.baton.store.jdbc;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.StepRecord;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.conversation.TurnRecord;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A turn's writes on PostgreSQL as {@link StatementChain}s: the answer, and a leased turn's transactional step, each in
 * one round trip with its COMMIT. Each part is the statement {@link JdbcConversationStore}'s step-by-step path runs, or
 * one that fails where that path would throw, so a chain that fails a check has written nothing; the caller then
 * learns why as that path tells it.
 */
final class PostgresTurnWrites {
    /** More calls than this in one turn are stored statement by statement (the chain's parameters stay bounded). */
    private static final int MAX_CALLS_IN_ONE_ROUND_TRIP = 64;

    private final Database db;
    private final SessionRows sessions;
    private final MessageAppends appends;
    private final ToolCallRows toolCalls;
    private final UsageRows usage;
    private final AuditRows auditRows;

    PostgresTurnWrites(
            Database db,
            SessionRows sessions,
            MessageAppends appends,
            ToolCallRows toolCalls,
            UsageRows usage,
            AuditRows auditRows) {
        this.db = db;
        this.sessions = sessions;
        this.appends = appends;
        this.toolCalls = toolCalls;
        this.usage = usage;
        this.auditRows = auditRows;
    }

    /**
     * Whether {@link #completeTurn} may store the turn: on PostgreSQL, in a transaction of its own (shared or not; a
     * joined one would be left aborted by a failed check, where the statements one by one leave it usable), with
     * distinct call ids ({@link ToolCallRows#linkOrInsertIn}) and a bounded statement.
     */
    boolean fitsOneRoundTrip(List<ToolCallRecord> calls) {
        if (db.dialect() != Dialect.POSTGRESQL || db.inTransactionOnThisThread()) return false;
        if (calls.size() > MAX_CALLS_IN_ONE_ROUND_TRIP) return false;
        Set<String> ids = new HashSet<>();
        for (ToolCallRecord t : calls) {
            if (!ids.add(t.id())) return false;
        }
        return true;
    }

    /**
     * The answer's statements, and the COMMIT when the transaction is the turn's own: one round trip instead of three
     * or more, and the tenant's totals row (locked by the usage, last) held only until the server commits.
     *
     * @param calls the turn's calls, with the answer's id
     * @throws StatementChain.CheckFailed when the fence no longer holds or the session is not the user's
     */
    Message completeTurn(Connection c, TurnRecord turn, List<ToolCallRecord> calls) throws SQLException {
        Message answer = turn.assistantMessage();
        StatementChain chain = new StatementChain();
        if (turn.fence() != null) RunningTurnRows.endIn(chain, turn.fence());
        Supplier<Message> stored = appends.appendIn(chain, answer, calls.size());
        toolCalls.linkOrInsertIn(chain, answer.sessionId(), answer.id(), calls);
        auditRows.insertAuditIn(chain, turn.audit());
        auditRows.insertExtractionsIn(chain, turn.extractions());
        usage.insertAllLastIn(chain, turn.usage());
        chain.run(c, db.commitWithLastStatement());
        return stored.get();
    }

    /**
     * A leased turn's transactional step after the tool's writes: its calls, its checkpoint under the fence and
     * {@code commit}, in one round trip.
     *
     * @throws StepRefused when a check failed (see {@link #whyRefused})
     */
    void recordStep(Connection c, String userId, TurnFence fence, StepRecord step, String commit) throws SQLException {
        StatementChain chain = new StatementChain();
        toolCalls.insertOwnedIn(chain, userId, step.calls());
        RunningTurnRows.checkpointIn(chain, fence, step.state());
        try {
            chain.run(c, commit);
        } catch (StatementChain.CheckFailed e) {
            throw new StepRefused(step);
        }
    }

    /**
     * Which check of a refused step failed, read once its transaction rolled back (both fail alike): the fence that no
     * longer holds, else a call's session that is not the user's.
     */
    RuntimeException whyRefused(String userId, TurnFence fence, StepRecord step) {
        if (!db.withConnection(c -> RunningTurnRows.holds(c, fence))) return new TurnFencedException(fence);
        for (ToolCallRecord t : step.calls()) {
            if (db.withConnection(c -> sessions.find(c, userId, t.sessionId())).isEmpty())
                return new SessionNotFoundException(t.sessionId());
        }
        // neither holds now (a fence never comes back): the step was refused all the same
        return new TurnFencedException(fence);
    }

    /** A step's chain failed a check: its transaction rolls back, the tool's writes with it. */
    static final class StepRefused extends RuntimeException {
        private final transient StepRecord step;

        StepRefused(StepRecord step) {
            super(null, null, false, false);
            this.step = step;
        }

        StepRecord step() {
            return step;
        }
    }
}
