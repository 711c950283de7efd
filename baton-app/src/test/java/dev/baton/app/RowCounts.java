package dev.baton.app;

import dev.baton.store.jdbc.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A count read straight from a test's database, beside what the runtime says it stored. */
final class RowCounts {
    private RowCounts() {}

    /** The single number {@code sql} (a {@code SELECT count(*) …}) returns. */
    static int count(Database db, String sql) {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("could not count: " + sql, e);
        }
    }
}
