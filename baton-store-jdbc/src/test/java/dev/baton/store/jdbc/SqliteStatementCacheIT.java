package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.jdbc3.JDBC3PreparedStatement;

/** The SQLite pool's connections keep their prepared statements, and a kept statement carries nothing over. */
class SqliteStatementCacheIT {

    @TempDir
    Path dir;

    private HikariDataSource pool;

    @BeforeEach
    void open() throws Exception {
        pool = SqlitePool.create("jdbc:sqlite:" + dir.resolve("cache.db"), DatabaseSettings.DEFAULTS);
        try (Connection c = pool.getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            s.executeUpdate("INSERT INTO t (v) VALUES ('a'), ('b'), ('c')");
        }
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void a_statement_prepared_again_on_the_same_connection_is_the_one_prepared_before() throws Exception {
        try (Connection c = pool.getConnection()) {
            JDBC3PreparedStatement first = countRows(c);
            JDBC3PreparedStatement second = countRows(c);
            assertThat(second).isSameAs(first);
            assertThat(second.isClosed()).isFalse();
        }
    }

    @Test
    void another_connection_prepares_its_own() throws Exception {
        try (Connection a = pool.getConnection();
                Connection b = pool.getConnection()) {
            assertThat(countRows(b)).isNotSameAs(countRows(a));
        }
    }

    @Test
    void a_result_set_left_open_does_not_hold_a_read_transaction_once_its_statement_is_closed() throws Exception {
        try (Connection reader = pool.getConnection();
                Connection writer = pool.getConnection()) {
            PreparedStatement query = reader.prepareStatement("SELECT v FROM t ORDER BY id");
            ResultSet rows = query.executeQuery();
            assertThat(rows.next()).isTrue(); // mid-way through the rows: the statement holds a read snapshot
            query.close(); // the result set itself is never closed by the caller

            try (Statement s = writer.createStatement()) {
                s.executeUpdate("INSERT INTO t (v) VALUES ('d')");
                try (ResultSet checkpoint = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                    assertThat(checkpoint.next()).isTrue();
                    // busy = 1 if any connection still read an older snapshot of the WAL
                    assertThat(checkpoint.getInt(1)).as("busy").isZero();
                }
            }
            // and the kept statement runs again from the first row
            try (PreparedStatement again = reader.prepareStatement("SELECT v FROM t ORDER BY id");
                    ResultSet fresh = again.executeQuery()) {
                assertThat(fresh.next()).isTrue();
                assertThat(fresh.getString(1)).isEqualTo("a");
            }
        }
    }

    @Test
    void parameters_bound_in_one_use_are_gone_in_the_next() throws Exception {
        try (Connection c = pool.getConnection()) {
            try (PreparedStatement s = c.prepareStatement("SELECT ?")) {
                s.setInt(1, 42);
                try (ResultSet r = s.executeQuery()) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getInt(1)).isEqualTo(42);
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT ?");
                    ResultSet r = s.executeQuery()) {
                assertThat(r.next()).isTrue();
                assertThat(r.getObject(1)).isNull();
            }
        }
    }

    @Test
    void a_statement_given_a_setting_that_would_outlive_its_use_is_not_kept() throws Exception {
        try (Connection c = pool.getConnection()) {
            JDBC3PreparedStatement limited;
            try (PreparedStatement s = c.prepareStatement("SELECT v FROM t")) {
                s.setMaxRows(1);
                limited = s.unwrap(JDBC3PreparedStatement.class);
            }
            assertThat(limited.isClosed()).isTrue();
            try (PreparedStatement s = c.prepareStatement("SELECT v FROM t");
                    ResultSet r = s.executeQuery()) {
                assertThat(s.unwrap(JDBC3PreparedStatement.class)).isNotSameAs(limited);
                int rows = 0;
                while (r.next()) rows++;
                assertThat(rows).isEqualTo(3);
            }
        }
    }

    @Test
    void the_same_sql_open_twice_at_once_runs_on_two_statements() throws Exception {
        try (Connection c = pool.getConnection();
                PreparedStatement outer = c.prepareStatement("SELECT v FROM t WHERE id >= ? ORDER BY id");
                PreparedStatement inner = c.prepareStatement("SELECT v FROM t WHERE id >= ? ORDER BY id")) {
            assertThat(inner.unwrap(JDBC3PreparedStatement.class))
                    .isNotSameAs(outer.unwrap(JDBC3PreparedStatement.class));
            outer.setInt(1, 1);
            inner.setInt(1, 3);
            try (ResultSet o = outer.executeQuery();
                    ResultSet i = inner.executeQuery()) {
                assertThat(o.next()).isTrue();
                assertThat(i.next()).isTrue();
                assertThat(o.getString(1)).isEqualTo("a");
                assertThat(i.getString(1)).isEqualTo("c");
            }
        }
    }

    @Test
    void closing_a_statement_twice_gives_it_back_once() throws Exception {
        try (Connection c = pool.getConnection()) {
            PreparedStatement s = c.prepareStatement("SELECT 1");
            s.close();
            s.close();
            try (PreparedStatement a = c.prepareStatement("SELECT 1");
                    PreparedStatement b = c.prepareStatement("SELECT 1")) {
                // had it been given back twice, both would be the same statement, open twice at once
                assertThat(b.unwrap(JDBC3PreparedStatement.class)).isNotSameAs(a.unwrap(JDBC3PreparedStatement.class));
            }
        }
    }

    /** Counts the table's rows with a statement the caller closes, and returns the driver's statement behind it. */
    private static JDBC3PreparedStatement countRows(Connection c) throws Exception {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM t");
                ResultSet r = s.executeQuery()) {
            assertThat(r.next()).isTrue();
            assertThat(r.getInt(1)).isEqualTo(3);
            return s.unwrap(JDBC3PreparedStatement.class);
        }
    }
}
