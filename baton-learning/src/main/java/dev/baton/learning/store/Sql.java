package dev.baton.learning.store;

import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import dev.baton.store.jdbc.OwnedRows.Param;
import dev.baton.store.jdbc.OwnedRows.RowReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The few statement shapes the learning repositories use, with their parameters bound in order. */
final class Sql {
    private Sql() {}

    static <T> List<T> list(Connection c, String sql, List<Param> params, RowReader<T> reader) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params);
                ResultSet rs = ps.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) rows.add(reader.read(rs));
            return rows;
        }
    }

    static <T> Optional<T> one(Connection c, String sql, List<Param> params, RowReader<T> reader) throws SQLException {
        List<T> rows = list(c, sql, params, reader);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    static int update(Connection c, String sql, List<Param> params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return ps.executeUpdate();
        }
    }

    /** Runs a read on a pooled connection (or this thread's transaction). */
    static <T> List<T> list(Database db, String sql, List<Param> params, RowReader<T> reader) {
        return db.withConnection(c -> list(c, sql, params, reader));
    }

    static <T> Optional<T> one(Database db, String sql, List<Param> params, RowReader<T> reader) {
        return db.withConnection(c -> one(c, sql, params, reader));
    }

    /** {@code FOR UPDATE} where it is needed: SQLite write transactions already hold the database's write lock. */
    static String forUpdate(Database db) {
        return db.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE" : "";
    }

    static Param integer(long value) {
        return (ps, i) -> ps.setLong(i, value);
    }

    static Param bool(boolean value) {
        return (ps, i) -> ps.setBoolean(i, value);
    }

    private static PreparedStatement prepare(Connection c, String sql, List<Param> params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            for (int i = 0; i < params.size(); i++) params.get(i).bind(ps, i + 1);
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
