package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite specifics: connection settings, the file's folder, and writers that never see SQLITE_BUSY. */
class SqliteDatabaseIT {

    @TempDir
    Path dir;

    @Test
    void every_pooled_connection_runs_in_wal_with_foreign_keys_a_busy_timeout_and_a_longer_checkpoint_interval()
            throws Exception {
        try (Database db = Database.open(url("baton.db"))) {
            assertThat(db.dialect()).isEqualTo(Dialect.SQLITE);
            // hold several connections at once so more than one pooled connection is checked
            List<Connection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) held.add(db.dataSource().getConnection());
                for (Connection c : held) {
                    assertThat(pragma(c, "journal_mode")).isEqualTo("wal");
                    assertThat(pragma(c, "foreign_keys")).isEqualTo("1");
                    assertThat(pragma(c, "busy_timeout")).isEqualTo("5000");
                    assertThat(pragma(c, "synchronous")).isEqualTo("1"); // NORMAL
                    assertThat(pragma(c, "wal_autocheckpoint")).isEqualTo("10000");
                }
            } finally {
                for (Connection c : held) c.close();
            }
        }
    }

    @Test
    void opening_creates_the_missing_folders_of_the_file() {
        Path file = dir.resolve("a/b/c/baton.db");
        try (Database db = Database.open("jdbc:sqlite:" + file)) {
            assertThat(db.dialect()).isEqualTo(Dialect.SQLITE);
            assertThat(file).exists();
        }
    }

    @Test
    void an_in_memory_database_is_refused_because_the_pool_would_not_share_it() {
        assertThatThrownBy(() -> Database.open("jdbc:sqlite::memory:")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readers_are_not_blocked_by_an_open_write_transaction() throws Exception {
        try (Database db = Database.open(url("rw.db"));
                ExecutorService pool = Executors.newFixedThreadPool(2)) {
            var store = new JdbcConversationStore(db);
            Session s = session(newUser(), "tutor", T0);
            store.createSession(s);
            CountDownLatch writing = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Future<Message> writer = pool.submit(() -> db.inTransaction(c -> {
                Message m = store.appendUserMessage(userMessage(s, "in flight", T0.plusSeconds(1)));
                writing.countDown();
                await(release);
                return m;
            }));
            assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();

            Future<Integer> reader = pool.submit(
                    () -> store.recentMessages(s.userId(), s.id(), 10).size());
            assertThat(reader.get(10, TimeUnit.SECONDS))
                    .as("the uncommitted message is not visible")
                    .isZero();

            release.countDown();
            assertThat(writer.get(10, TimeUnit.SECONDS).seq()).isEqualTo(1);
            assertThat(store.recentMessages(s.userId(), s.id(), 10)).hasSize(1);
        }
    }

    @Test
    void two_databases_on_one_file_write_concurrently_without_sqlite_busy() throws Exception {
        String url = url("shared.db");
        try (Database first = Database.open(url);
                Database second = Database.open(url);
                ExecutorService pool = Executors.newFixedThreadPool(6)) {
            // two pools with separate in-process locks behave like two processes: only BEGIN IMMEDIATE and the
            // busy timeout keep them apart
            var stores = List.of(new JdbcConversationStore(first), new JdbcConversationStore(second));
            Session s = session(newUser(), "tutor", T0);
            stores.getFirst().createSession(s);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Long>>> futures = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                var store = stores.get(t % 2);
                futures.add(pool.submit(() -> {
                    await(start);
                    List<Long> seqs = new ArrayList<>();
                    for (int i = 0; i < 20; i++)
                        seqs.add(store.appendUserMessage(userMessage(s, "x", Instant.now()))
                                .seq());
                    return seqs;
                }));
            }
            start.countDown();
            List<Long> all = new ArrayList<>();
            for (var f : futures) all.addAll(f.get(60, TimeUnit.SECONDS));
            assertThat(all)
                    .containsExactlyInAnyOrderElementsOf(
                            LongStream.rangeClosed(1, 120).boxed().toList());
        }
    }

    @Test
    void read_then_write_transactions_from_two_databases_never_lose_an_update() throws Exception {
        String url = url("counter.db");
        try (Database first = Database.open(url);
                Database second = Database.open(url);
                ExecutorService pool = Executors.newFixedThreadPool(4)) {
            first.inTransaction(c -> {
                try (Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE counter (n INTEGER NOT NULL)");
                    return st.execute("INSERT INTO counter (n) VALUES (0)");
                }
            });
            // a deferred transaction would take a read lock on the SELECT and fail to upgrade it (SQLITE_BUSY)
            // once the other database commits; BEGIN IMMEDIATE takes the write lock before reading
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Database db = t % 2 == 0 ? first : second;
                futures.add(pool.submit(() -> {
                    await(start);
                    for (int i = 0; i < 25; i++) {
                        db.inTransaction(c -> {
                            long n;
                            try (Statement st = c.createStatement();
                                    ResultSet rs = st.executeQuery("SELECT n FROM counter")) {
                                rs.next();
                                n = rs.getLong(1);
                            }
                            try (Statement st = c.createStatement()) {
                                return st.executeUpdate("UPDATE counter SET n = " + (n + 1));
                            }
                        });
                    }
                    return null;
                }));
            }
            start.countDown();
            for (var f : futures) f.get(60, TimeUnit.SECONDS);
            long total = first.withConnection(c -> {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT n FROM counter")) {
                    rs.next();
                    return rs.getLong(1);
                }
            });
            assertThat(total).isEqualTo(100);
        }
    }

    @Test
    void reopening_an_existing_file_does_not_migrate_again() throws Exception {
        String url = url("again.db");
        long appliedFirst;
        try (Database db = Database.open(url)) {
            assertThat(db.dialect()).isEqualTo(Dialect.SQLITE);
            assertThat(Files.size(dir.resolve("again.db"))).isPositive();
            appliedFirst = appliedMigrations(db);
        }
        try (Database db = Database.open(url)) {
            // as many as the first open applied (one per migration file), none added by reopening
            assertThat(appliedFirst).isPositive();
            assertThat(appliedMigrations(db)).isEqualTo(appliedFirst);
        }
    }

    private static long appliedMigrations(Database db) {
        return db.withConnection(c -> {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success = 1")) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    private String url(String file) {
        return "jdbc:sqlite:" + dir.resolve(file);
    }

    private static String pragma(Connection c, String name) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("latch not released");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
