package dev.baton.store.jdbc;

import java.util.Locale;

/** The SQL databases Baton stores its state in. */
public enum Dialect {
    /** The embedded default: one file, one instance. */
    SQLITE,
    /** For several instances sharing state. */
    POSTGRESQL;

    /** The folder name of this dialect's Flyway migrations, e.g. {@code sqlite}. */
    public String migrationFolder() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The dialect of a JDBC URL. */
    public static Dialect of(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) return SQLITE;
        if (jdbcUrl.startsWith("jdbc:postgresql:")) return POSTGRESQL;
        throw new IllegalArgumentException(
                "unsupported JDBC URL (want jdbc:sqlite: or jdbc:postgresql:): " + redact(jdbcUrl));
    }

    /** The URL without its query string, which may carry a password. */
    static String redact(String jdbcUrl) {
        int q = jdbcUrl.indexOf('?');
        return q < 0 ? jdbcUrl : jdbcUrl.substring(0, q) + "?…";
    }
}
