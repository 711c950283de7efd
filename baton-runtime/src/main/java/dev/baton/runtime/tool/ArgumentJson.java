package dev.baton.runtime.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.core.json.PooledJsonFactory;

/**
 * The one Jackson mapper of annotated tools, for arguments and results alike, so that what the schema promises and
 * what the conversion accepts come from the same rules: ISO-8601 text for java.time values, an {@code Optional} as
 * its content, enums by their Jackson names.
 */
final class ArgumentJson {
    static final ObjectMapper MAPPER = JsonMapper.builder(PooledJsonFactory.create())
            .addModule(new Jdk8Module())
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .build();

    private ArgumentJson() {}

    /** How Jackson writes (and so reads) the constant: its name, or what {@code @JsonProperty}/{@code @JsonValue} say. */
    static String enumText(Enum<?> constant) {
        JsonNode json = MAPPER.valueToTree(constant);
        return json.isTextual() ? json.textValue() : null;
    }
}
