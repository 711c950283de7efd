package dev.baton.tasks.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.store.jdbc.Dialect;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Where SQLite and PostgreSQL differ for the tasks table: how instants and the tags array are stored, and how
 * "has this exact tag" is asked.
 */
sealed interface DialectSql {
    ObjectMapper JSON = new ObjectMapper();
    TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};

    static DialectSql of(Dialect dialect) {
        return switch (dialect) {
            case SQLITE -> new Sqlite();
            case POSTGRESQL -> new Postgres();
        };
    }

    void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException;

    Instant readInstant(ResultSet rs, String column) throws SQLException;

    /** The placeholder for the tags column in INSERT and UPDATE. */
    String tagsPlaceholder();

    /** A WHERE condition, with one parameter (the normalised tag), true when the row has exactly that tag. */
    String hasTagCondition();

    /** What ends a SELECT that reads a row about to be updated. */
    String lockForUpdate();

    static String tagsToJson(List<String> tags) {
        try {
            return JSON.writeValueAsString(tags);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings always serialises", e);
        }
    }

    static List<String> tagsFromJson(String json) {
        try {
            return json == null ? List.of() : JSON.readValue(json, STRING_LIST);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("tasks.tags holds invalid JSON", e);
        }
    }

    /** ISO-8601 UTC text with six fraction digits, the core tables' convention: text order is time order. */
    final class Sqlite implements DialectSql {
        private static final DateTimeFormatter TEXT =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

        @Override
        public void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
            if (value == null) ps.setNull(index, Types.VARCHAR);
            else ps.setString(index, TEXT.format(value));
        }

        @Override
        public Instant readInstant(ResultSet rs, String column) throws SQLException {
            String text = rs.getString(column);
            return text == null ? null : Instant.parse(text);
        }

        @Override
        public String tagsPlaceholder() {
            return "?";
        }

        @Override
        public String hasTagCondition() {
            return "EXISTS (SELECT 1 FROM json_each(tasks.tags) AS tag WHERE tag.value = ?)";
        }

        @Override
        public String lockForUpdate() {
            return ""; // the transaction began IMMEDIATE: it already holds the write lock
        }
    }

    final class Postgres implements DialectSql {
        @Override
        public void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
            if (value == null) ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
            else ps.setObject(index, value.atOffset(ZoneOffset.UTC));
        }

        @Override
        public Instant readInstant(ResultSet rs, String column) throws SQLException {
            OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
            return value == null ? null : value.toInstant();
        }

        @Override
        public String tagsPlaceholder() {
            return "CAST(? AS jsonb)";
        }

        @Override
        public String hasTagCondition() {
            return "tasks.tags @> jsonb_build_array(CAST(? AS text))";
        }

        @Override
        public String lockForUpdate() {
            return " FOR UPDATE";
        }
    }
}
