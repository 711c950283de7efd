package dev.baton.store.jdbc;

import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.TurnFencedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The fenced writes of a running turn on its {@code running_turns} row, made inside the turn's own transactions: a
 * step's checkpoint, and the end of the lease with the answer. Each changes the row only while it has the fence's
 * epoch; when it does not, the transaction is rolled back by {@link TurnFencedException}.
 */
final class RunningTurnRows {
    private RunningTurnRows() {}

    /** Writes the turn's state after a step, if the fence holds. */
    static void checkpoint(Connection c, TurnFence fence, String state) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE running_turns SET state_json = ? WHERE turn_id = ? AND epoch = ?")) {
            ps.setString(1, state);
            ps.setString(2, fence.turnId());
            ps.setLong(3, fence.epoch());
            if (ps.executeUpdate() == 0) throw new TurnFencedException(fence);
        }
    }

    /**
     * {@link #checkpoint} as a part of a PostgreSQL chain: a fence that no longer holds fails the chain with {@link
     * StatementChain#EXPECTED_ROW_MISSING} (a COMMIT after it must not keep the step's other writes).
     */
    static void checkpointIn(StatementChain chain, TurnFence fence, String state) {
        chain.add(
                "WITH u AS (UPDATE running_turns SET state_json = ? WHERE turn_id = ? AND epoch = ? RETURNING 1)"
                        + " SELECT 1 / count(*) FROM u",
                (ps, first) -> {
                    ps.setString(first, state);
                    ps.setString(first + 1, fence.turnId());
                    ps.setLong(first + 2, fence.epoch());
                    return first + 3;
                });
    }

    /** Whether the turn's row still has the fence's epoch. */
    static boolean holds(Connection c, TurnFence fence) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM running_turns WHERE turn_id = ? AND epoch = ?")) {
            ps.setString(1, fence.turnId());
            ps.setLong(2, fence.epoch());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Ends the lease, if the fence holds: the turn's answer is being stored. */
    static void end(Connection c, TurnFence fence) throws SQLException {
        if (!delete(c, fence)) throw new TurnFencedException(fence);
    }

    /**
     * {@link #end} as a part of a PostgreSQL chain: a fence that no longer holds fails the chain with {@link
     * StatementChain#EXPECTED_ROW_MISSING}.
     */
    static void endIn(StatementChain chain, TurnFence fence) {
        chain.add(
                "WITH d AS (DELETE FROM running_turns WHERE turn_id = ? AND epoch = ? RETURNING 1)"
                        + " SELECT 1 / count(*) FROM d",
                (ps, first) -> {
                    ps.setString(first, fence.turnId());
                    ps.setLong(first + 1, fence.epoch());
                    return first + 2;
                });
    }

    /** Deletes the row if it still has the fence's epoch; false when it did not. */
    static boolean delete(Connection c, TurnFence fence) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM running_turns WHERE turn_id = ? AND epoch = ?")) {
            ps.setString(1, fence.turnId());
            ps.setLong(2, fence.epoch());
            return ps.executeUpdate() > 0;
        }
    }
}
