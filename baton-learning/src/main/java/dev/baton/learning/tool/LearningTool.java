package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.domain.DomainTool;
import dev.baton.core.tool.ToolContext;
import java.util.Set;

/**
 * What all learning tools share: the caller is always {@code context.principal()} (never anything in the
 * arguments), missing arguments read as none, and a domain refusal reaches the model as a tool error with the same
 * code and message (see {@link DomainTool}). Each subclass maps its arguments onto one service call.
 */
abstract class LearningTool extends DomainTool {

    LearningTool(String name, String description, String schemaJson, Set<String> permissions) {
        this(name, description, schemaJson, permissions, false);
    }

    /**
     * @param transactional whether its effect is writes to the learning tables only: in a durable turn they commit with
     *     the record of the call (not so a tool whose effect reaches outside the database, such as a job's wake-up)
     */
    LearningTool(String name, String description, String schemaJson, Set<String> permissions, boolean transactional) {
        super(name, description, schemaJson, permissions, false, transactional);
    }

    @Override
    protected final JsonNode run(JsonNode arguments, ToolContext context) {
        return call(arguments == null ? LearningJson.MAPPER.createObjectNode() : arguments, context);
    }

    /** Maps the arguments onto one service call made as {@code context.principal()}. */
    abstract JsonNode call(JsonNode arguments, ToolContext context);

    /** The schema of a tool without parameters. */
    static final String NO_PARAMETERS = """
            {"type": "object", "properties": {}, "additionalProperties": false}
            """;
}
