package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.testkit.db.PostgresTestDatabase;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit on PostgreSQL, in a schema of its own: writes queued behind a running batch share one transaction with
 * no savepoints, and when one of them fails the batch is rolled back and each write runs again alone. Whether writes
 * shared a transaction is read from outside it, on a connection of the test's own.
 */
class PostgresGroupCommitIT {

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch release = new CountDownLatch(1);
    private PostgresTestDatabase postgres;
    private Database db;

    @BeforeEach
    void open() {
        postgres = PostgresTestDatabase.create();
        db = Database.open(postgres.url(), List.of(), DatabaseSettings.DEFAULTS.withGroupCommit(true));
        db.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE probe (name TEXT PRIMARY KEY)");
            }
            return null;
        });
    }

    @AfterEach
    void close() {
        release.countDown();
        threads.shutdownNow();
        if (db != null) db.close();
        if (postgres != null) postgres.drop();
    }

    @Test
    void writers_queued_behind_a_batch_share_one_transaction() throws Exception {
        Future<Integer> holder = queue(holdingTheBatch("first"));
        List<Future<Integer>> writers = new ArrayList<>();
        for (int i = 0; i < 4; i++) writers.add(queue(insertThenCountCommitted("w" + i)));
        release.countDown();

        assertThat(holder.get(30, TimeUnit.SECONDS)).isZero();
        // each sees only "first" committed: none of the batch's rows, its own included, before the batch commits
        for (Future<Integer> w : writers)
            assertThat(w.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(rows()).containsExactlyInAnyOrder("first", "w0", "w1", "w2", "w3");
        assertThat(db.queuedSharedWrites()).isZero();
    }

    @Test
    void a_failing_write_fails_alone_and_the_others_run_again_on_their_own() throws Exception {
        Future<Integer> holder = queue(holdingTheBatch("first"));
        Future<Integer> before = queue(insertThenCountCommitted("a"));
        Future<Integer> failing = queue(c -> {
            insert(c, "b");
            insert(c, "first"); // a duplicate key: PostgreSQL aborts the whole transaction
            return 0;
        });
        Future<Integer> after = queue(insertThenCountCommitted("c"));
        release.countDown();

        assertThat(holder.get(30, TimeUnit.SECONDS)).isZero();
        // run again alone after the rollback: "a" sees only "first", "c" sees "first" and "a" committed before it
        assertThat(before.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(after.get(30, TimeUnit.SECONDS)).isEqualTo(2);
        assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("duplicate key");
        assertThat(rows()).containsExactlyInAnyOrder("first", "a", "c");
    }

    @Test
    void a_write_alone_runs_as_before_and_nested_work_joins_its_transaction() throws Exception {
        Boolean joined = db.inSharedTransaction(c -> {
            insert(c, "outer");
            return db.inTransaction(nested -> {
                insert(nested, "nested");
                return nested == c;
            });
        });
        assertThat(joined).isTrue();
        int seen = db.inSharedStatement(c -> {
            insert(c, "one statement");
            return rows().size();
        });
        assertThat(seen)
                .as("alone, one statement commits by itself (autocommit), so it sees itself")
                .isEqualTo(3);
        assertThat(rows()).containsExactlyInAnyOrder("outer", "nested", "one statement");
    }

    /** A write that leads its batch of one and holds it (and the queue behind it) until {@link #release}. */
    private SqlWork<Integer> holdingTheBatch(String name) {
        return c -> {
            insert(c, name);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        };
    }

    private <T> Future<T> queue(SqlWork<T> work) {
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
        return new ProbeRows(postgres.url(), threads);
    }
}
