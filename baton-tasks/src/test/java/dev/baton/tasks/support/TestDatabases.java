package dev.baton.tasks.support;

import static org.junit.jupiter.api.Assertions.fail;

import dev.baton.store.jdbc.Database;
import dev.baton.tasks.TaskModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** Real databases for integration tests: a SQLite file, or a throw-away schema in the local PostgreSQL. */
public final class TestDatabases {
    private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

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
        String schema =
                "tasks_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(POSTGRES);
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        } catch (SQLException unreachable) {
            String message = "PostgreSQL at 127.0.0.1:5432 is unreachable: " + unreachable.getMessage();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(message, unreachable);
            Assumptions.abort(message);
        }
        Database db = Database.open(POSTGRES + "&currentSchema=" + schema, List.of(TaskModule.MIGRATIONS));
        return new Opened(db, () -> {
            try (Connection c = DriverManager.getConnection(POSTGRES);
                    Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        });
    }
}
