package dev.baton.store.jdbc;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.sqlite.SQLiteException;

/** Tells a database that cannot be reached or cannot write from one that answered and refused a statement. */
final class Unavailability {
    /** PostgreSQL: shutting down, crashed, starting up, too many connections. Class 08 is added by prefix. */
    private static final Set<String> POSTGRES_STATES = Set.of("57P01", "57P02", "57P03", "53300");
    /** SQLite's primary result codes for a file it cannot open, write or grow. */
    private static final Set<Integer> SQLITE_CODES = Set.of(
            8, // SQLITE_READONLY
            10, // SQLITE_IOERR
            13, // SQLITE_FULL
            14); // SQLITE_CANTOPEN

    private Unavailability() {}

    /** True when {@code e}, or what caused it, says the database is out of reach rather than refusing a statement. */
    static boolean of(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException) return true; // no pooled connection in time
            if (t instanceof SQLiteException s && SQLITE_CODES.contains(s.getResultCode().code & 0xff)) return true;
            if (t instanceof SQLException s && s.getSQLState() != null) {
                String state = s.getSQLState();
                if (state.startsWith("08") || POSTGRES_STATES.contains(state)) return true;
            }
            if (t.getCause() == t) break;
        }
        return false;
    }
}
