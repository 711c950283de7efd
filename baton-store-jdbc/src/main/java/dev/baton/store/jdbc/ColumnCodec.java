package dev.baton.store.jdbc;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Binds and reads the column types whose representation differs by dialect: instants and decimals.
 *
 * <p>Instants are kept to the microsecond (PostgreSQL's precision); {@link #truncate} gives the value a
 * read will return. SQLite stores them as ISO-8601 UTC text with exactly six fraction digits, so text order is
 * time order; PostgreSQL uses {@code timestamptz}. Decimals are text on SQLite and {@code numeric} on
 * PostgreSQL, both exact.
 */
public final class ColumnCodec {
    private final Dialect dialect;

    private ColumnCodec(Dialect dialect) {
        this.dialect = dialect;
    }

    public static ColumnCodec of(Dialect dialect) {
        return new ColumnCodec(dialect);
    }

    /** The instant as the database will give it back. */
    public static Instant truncate(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS);
    }

    public void setInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            if (value == null) ps.setNull(index, Types.VARCHAR);
            else ps.setString(index, SqliteInstants.format(truncate(value)));
        } else {
            if (value == null) ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
            else ps.setObject(index, OffsetDateTime.ofInstant(truncate(value), ZoneOffset.UTC));
        }
    }

    public Instant getInstant(ResultSet rs, String column) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            String text = rs.getString(column);
            return text == null ? null : SqliteInstants.parse(text);
        }
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    public void setDecimal(PreparedStatement ps, int index, BigDecimal value) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            if (value == null) ps.setNull(index, Types.VARCHAR);
            else ps.setString(index, value.toPlainString());
        } else {
            ps.setBigDecimal(index, value);
        }
    }

    public BigDecimal getDecimal(ResultSet rs, String column) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            String text = rs.getString(column);
            return text == null ? null : new BigDecimal(text);
        }
        return rs.getBigDecimal(column);
    }
}
