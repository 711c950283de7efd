package dev.baton.tasks.support;

import dev.baton.store.jdbc.Database;
import dev.baton.tasks.TaskModule;
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

    /** A migrated database plus whatever undoes it. */
    public record Opened(Database database, AutoCloseable cleanup) implements AutoCloseable {
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
        Path folder = Files.createTempDirectory("baton-tasks-test");
        Database db = Database.open("jdbc:sqlite:" + folder.resolve("tasks.db"), List.of(TaskModule.MIGRATIONS));
        return new Opened(db, () -> {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        });
    }

    /**
     * A fresh schema in the local PostgreSQL, dropped on close. Skips the test when PostgreSQL is unreachable,
     * unless the environment says CI=true, where it fails instead.
     */
    public static Opened postgresql() {
        PostgresTestDatabase pg = PostgresTestDatabase.create();
        Database db = Database.open(pg.url(), List.of(TaskModule.MIGRATIONS));
        return new Opened(db, pg::drop);
    }
}
