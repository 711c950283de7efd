package dev.baton.server.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A throwaway schema in the local PostgreSQL (127.0.0.1:5432, database test, trust auth). Where no PostgreSQL
 * is reachable the test is skipped with a message — except under CI=true, where that is a failure.
 */
final class Postgres implements AutoCloseable {
    static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    final String schema =
            "baton_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private Postgres() {}

    static Postgres freshSchema() {
        try (Connection c = DriverManager.getConnection(SERVER);
                Statement s = c.createStatement()) {
            Postgres pg = new Postgres();
            s.execute("CREATE SCHEMA " + pg.schema);
            return pg;
        } catch (SQLException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("PostgreSQL at 127.0.0.1:5432 is required under CI=true but is not reachable: " + e.getMessage());
            }
            assumeTrue(
                    false,
                    "PostgreSQL at 127.0.0.1:5432 not reachable, skipping the PostgreSQL half: " + e.getMessage());
            throw new IllegalStateException("unreachable");
        }
    }

    String url() {
        return SERVER + "&currentSchema=" + schema;
    }

    @Override
    public void close() {
        try (Connection c = DriverManager.getConnection(SERVER);
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException ignored) {
            // best effort: a leftover schema is harmless and uniquely named
        }
    }
}
