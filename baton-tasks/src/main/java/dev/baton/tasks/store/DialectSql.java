package dev.baton.tasks.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.store.jdbc.Dialect;
import java.util.List;

/**
 * Where SQLite and PostgreSQL differ for the tasks table beyond instants (which {@link
 * dev.baton.store.jdbc.ColumnCodec} handles): how the tags array is stored, and how "has this exact tag" is asked.
 *
 * @param tagsPlaceholder the placeholder for the tags column in INSERT and UPDATE
 * @param hasTagCondition a WHERE condition, with one parameter (the normalised tag), true when the row has exactly
 *     that tag
 */
record DialectSql(String tagsPlaceholder, String hasTagCondition) {
    /** On the shared buffer pool: a task's tags are written on the turn's own (virtual, short-lived) thread. */
    private static final ObjectMapper JSON = new ObjectMapper(PooledJsonFactory.create());

    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};

    static DialectSql of(Dialect dialect) {
        return switch (dialect) {
            case SQLITE ->
                new DialectSql("?", "EXISTS (SELECT 1 FROM json_each(tasks.tags) AS tag WHERE tag.value = ?)");
            case POSTGRESQL -> new DialectSql("CAST(? AS jsonb)", "tasks.tags @> jsonb_build_array(CAST(? AS text))");
        };
    }

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
}
