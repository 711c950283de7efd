package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit on a SQLite file: writers queued while another transaction holds the write lock share one transaction,
 * each in its own savepoint. Whether writes shared a transaction is read from outside it: a plain connection sees
 * none of a batch's rows until the batch commits, while writes committed one by one each see the ones before.
 */
class SqliteGroupCommitIT {

    @TempDir
    Path dir;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        threads.shutdownNow();
    }

    @Test
    void writers_queued_together_share_one_commit() throws Exception {
        try (Database db = open(true)) {
            holdWriteLock(db);
            List<Future<Integer>> writers = new ArrayList<>();
            for (int i = 0; i < 5; i++) writers.add(queue(db, insertThenCountCommitted("w" + i)));
            release.countDown();

            for (Future<Integer> w : writers)
                assertThat(w.get(30, TimeUnit.SECONDS)).isZero();
            assertThat(rows()).containsExactlyInAnyOrder("w0", "w1", "w2", "w3", "w4");
        }
    }

    @Test
    void without_group_commit_each_writer_commits_alone() throws Exception {
        try (Database db = open(false)) {
            List<Future<Integer>> writers = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                SqlWork<Integer> work = insertThenCountCommitted("w" + i);
                writers.add(threads.submit(() -> db.inSharedTransaction(work)));
            }
            List<Integer> seen = new ArrayList<>();
            for (Future<Integer> w : writers) seen.add(w.get(30, TimeUnit.SECONDS));

            assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
            assertThat(db.queuedSharedWrites()).isZero();
        }
    }

    @Test
    void a_failing_write_is_rolled_back_alone_and_its_caller_gets_its_exception() throws Exception {
        try (Database db = open(true)) {
            holdWriteLock(db);
            Future<Integer> first = queue(db, insertThenCountCommitted("a"));
            Future<Integer> failing = queue(db, c -> {
                insert(c, "b");
                throw new IllegalStateException("b refused");
            });
            Future<Integer> last = queue(db, insertThenCountCommitted("c"));
            release.countDown();

            assertThat(first.get(30, TimeUnit.SECONDS)).isZero();
            assertThat(last.get(30, TimeUnit.SECONDS)).isZero();
            assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("b refused");
            assertThat(rows()).containsExactlyInAnyOrder("a", "c");
        }
    }

    @Test
    void a_failed_commit_fails_every_write_of_the_batch() throws Exception {
        try (Database db = open(true)) {
            holdWriteLock(db);
            Future<Integer> first = queue(db, insertThenCountCommitted("a"));
            // a deferred foreign key is checked by COMMIT only: this write passes, and the batch's COMMIT fails
            Future<Integer> orphan = queue(db, c -> {
                try (Statement s = c.createStatement()) {
                    return s.executeUpdate("INSERT INTO child (id, parent) VALUES ('x', 'missing')");
                }
            });
            Future<Integer> last = queue(db, insertThenCountCommitted("c"));
            release.countDown();

            for (Future<Integer> w : List.of(first, orphan, last)) {
                assertThatThrownBy(() -> w.get(30, TimeUnit.SECONDS))
                        .cause()
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("FOREIGN KEY");
            }
            assertThat(rows()).isEmpty();
            // the connection was rolled back, not left in the failed transaction
            db.inSharedTransaction(insertThenCountCommitted("d"));
            assertThat(rows()).containsExactly("d");
        }
    }

    @Test
    void work_nested_in_a_shared_write_joins_its_transaction_on_the_committing_thread() throws Exception {
        try (Database db = open(true)) {
            holdWriteLock(db);
            Future<Integer> leader = queue(db, insertThenCountCommitted("a"));
            // not the leader: this work runs on the leader's thread, where its nested calls must find its transaction
            Future<Boolean> joined = queue(
                    db,
                    c -> db.inTransaction(nested -> {
                        insert(nested, "nested");
                        return nested == c && db.withConnection(read -> read == c);
                    }));
            Future<Integer> rolledBack = queue(
                    db,
                    c -> db.inTransaction(nested -> {
                        insert(nested, "nested-then-failed");
                        throw new IllegalStateException("refused after a nested write");
                    }));
            release.countDown();

            assertThat(leader.get(30, TimeUnit.SECONDS)).isZero();
            assertThat(joined.get(30, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> rolledBack.get(30, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(IllegalStateException.class);
            assertThat(rows()).containsExactlyInAnyOrder("a", "nested");
        }
    }

    private Database open(boolean groupCommit) throws SQLException {
        Database db = Database.open(url(), List.of(), DatabaseSettings.DEFAULTS.withGroupCommit(groupCommit));
        db.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE probe (name TEXT PRIMARY KEY)");
                s.execute("CREATE TABLE parent (id TEXT PRIMARY KEY)");
                s.execute("CREATE TABLE child (id TEXT PRIMARY KEY,"
                        + " parent TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)");
            }
            return null;
        });
        return db;
    }

    /** Holds this process's write lock in an exclusive transaction until {@link #release}. */
    private void holdWriteLock(Database db) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        threads.submit(() -> db.inTransaction(c -> {
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
        assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
    }

    private <T> Future<T> queue(Database db, SqlWork<T> work) {
        return probe().queue(db, work);
    }

    private SqlWork<Integer> insertThenCountCommitted(String name) {
        return probe().insertThenCountCommitted(name);
    }

    private static void insert(Connection c, String name) throws SQLException {
        ProbeRows.insert(c, name);
    }

    private List<String> rows() throws SQLException {
        return probe().rows();
    }

    private ProbeRows probe() {
        return new ProbeRows(url(), threads);
    }

    private String url() {
        return "jdbc:sqlite:" + dir.resolve("group.db");
    }
}
