package dev.baton.store.jdbc;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The group-commit ITs' probe table ({@code probe (name)}): shared writes queued in the order they are started, and the
 * rows committed so far as a connection outside the pool sees them.
 */
final class ProbeRows {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final String url;
    private final ExecutorService threads;

    ProbeRows(String url, ExecutorService threads) {
        this.url = url;
        this.threads = threads;
    }

    /** Starts a shared write and waits until it is queued, so writes queue (and run) in the order they are started. */
    <T> Future<T> queue(Database db, SqlWork<T> work) {
        int before = db.queuedSharedWrites();
        Future<T> future = threads.submit(() -> db.inSharedTransaction(work));
        await().atMost(PATIENCE).until(() -> db.queuedSharedWrites() == before + 1);
        return future;
    }

    /** Inserts a row, then counts the rows committed so far as another connection sees them. */
    SqlWork<Integer> insertThenCountCommitted(String name) {
        return c -> {
            insert(c, name);
            return rows().size();
        };
    }

    static void insert(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO probe (name) VALUES (?)")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }

    /** The committed rows, read on a connection of its own outside the pool. */
    List<String> rows() throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM probe")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) names.add(rs.getString(1));
            return names;
        }
    }
}
