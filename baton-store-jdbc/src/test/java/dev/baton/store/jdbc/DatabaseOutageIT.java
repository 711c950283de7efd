package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.core.conversation.Session;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.testkit.db.PostgresInstance;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that goes away while Baton runs: a PostgreSQL server of the test's own that it stops and starts, and a
 * SQLite file that becomes unwritable. Calls fail within about the pool's connection timeout with
 * {@link StoreUnavailableException}, then at once while the breaker is open; readiness says so within its deadline;
 * and the store works again, without a restart, once the database is back.
 */
class DatabaseOutageIT {
    /** Far above the 1 s connection timeout, so a busy machine never fails these: the old wait was 30 s. */
    private static final Duration FAST = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    void postgresql_that_stops_fails_calls_fast_and_the_store_recovers_when_it_returns() {
        try (PostgresInstance pg = PostgresInstance.start();
                Database db = Database.open(pg.url())) {
            JdbcConversationStore store = new JdbcConversationStore(db);
            String user = newUser();
            Session s = session(user, "tasks", T0);
            store.createSession(s);

            pg.stop();

            for (int i = 0; i < 3; i++) {
                long started = System.nanoTime();
                assertThatThrownBy(() -> store.findSession(user, s.id())).isInstanceOf(StoreUnavailableException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);
            }
            // three failures of the last five: the breaker is open and the next call does not even try
            assertThat(db.available()).isFalse();
            long started = System.nanoTime();
            assertThatThrownBy(() -> store.appendUserMessage(userMessage(s, "hello", T0), List.of(), List.of()))
                    .isInstanceOf(StoreUnavailableException.class)
                    .satisfies(e -> assertThat(((StoreUnavailableException) e).retryAfter())
                            .isPositive());
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(900));

            started = System.nanoTime();
            assertThat(db.isUp(Duration.ofSeconds(1))).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);

            pg.restart();
            long back = System.nanoTime();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() -> store.findSession(user, s.id()).isPresent());
            System.out.printf(
                    "DatabaseOutageIT: PostgreSQL back, store answering again after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back));
            assertThat(db.isUp(Duration.ofSeconds(5))).isTrue();
            assertThat(db.available()).isTrue();
        }
    }

    @Test
    void a_sqlite_file_that_becomes_unwritable_fails_writes_as_unavailable_and_recovers() throws Exception {
        Path file = dir.resolve("baton.db");
        try (Database db = Database.open("jdbc:sqlite:" + file)) {
            JdbcConversationStore store = new JdbcConversationStore(db);
            String user = newUser();
            Session s = session(user, "tasks", T0);
            store.createSession(s);
            Path wal = dir.resolve("baton.db-wal");
            assertThat(wal).exists();

            // root ignores file modes; the immutable attribute stops even root (and the -shm file stays writable:
            // SQLite maps it into memory, and a mapping that cannot be written kills the process)
            Assumptions.assumeTrue(chattr("+i", file, wal), "chattr +i is not supported on this file system");
            try {
                // connections the pool opens now open the file read-only, and SQLite keeps them so
                ((com.zaxxer.hikari.HikariDataSource) db.dataSource())
                        .getHikariPoolMXBean()
                        .softEvictConnections();
                assertThat(store.findSession(user, s.id())).as("reads go on").isPresent();
                long started = System.nanoTime();
                assertThatThrownBy(() -> store.appendUserMessage(userMessage(s, "hello", T0), List.of(), List.of()))
                        .isInstanceOf(StoreUnavailableException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);
                assertThat(db.isUp(Duration.ofSeconds(1))).isFalse();
            } finally {
                assertThat(chattr("-i", file, wal)).as("chattr -i").isTrue();
            }
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() ->
                            store.appendUserMessage(userMessage(s, "hello again", T0), List.of(), List.of()) != null);
            assertThat(db.isUp(Duration.ofSeconds(5))).isTrue();
        }
    }

    private static boolean chattr(String flag, Path... files) throws Exception {
        for (Path f : files) {
            Process p = new ProcessBuilder("chattr", flag, f.toString())
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) return false;
        }
        return true;
    }
}
