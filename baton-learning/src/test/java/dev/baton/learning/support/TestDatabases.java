package dev.baton.learning.support;

import dev.baton.learning.LearningModule;
import dev.baton.store.jdbc.Database;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Real databases for integration tests: a SQLite file, or a throw-away schema in the local PostgreSQL. */
public final class TestDatabases {
    private TestDatabases() {}

    /**
     * A migrated database plus whatever undoes it.
     *
     * @param url how to open it again (a restart)
     */
    public record Opened(Database database, String url, AutoCloseable cleanup) implements AutoCloseable {
        /** Another pool on the same database, as a restarted or second instance would open it. */
        public Database reopen() {
            return Database.open(url, List.of(LearningModule.MIGRATIONS));
        }

        @Override
        public void close() throws Exception {
            try {
                database.close();
            } finally {
                cleanup.close();
            }
        }
    }

    /** A SQLite file in a new temporary folder, deleted on close. */
    public static Opened sqlite() throws IOException {
        Path folder = Files.createTempDirectory("baton-learning-test");
        String url = "jdbc:sqlite:" + folder.resolve("learning.db");
        return new Opened(Database.open(url, List.of(LearningModule.MIGRATIONS)), url, () -> {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        });
    }

    /**
     * A fresh schema in the local PostgreSQL, dropped on close. Skips the test when PostgreSQL is unreachable, unless
     * the environment says CI=true, where it fails instead.
     */
    public static Opened postgresql() {
        PostgresTestDatabase pg = PostgresTestDatabase.create();
        return new Opened(Database.open(pg.url(), List.of(LearningModule.MIGRATIONS)), pg.url(), pg::drop);
    }
}
