package dev.baton.tasks.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import dev.baton.tasks.domain.TaskException;
import java.util.Set;

/**
 * What all task tools share: the caller is always {@code context.principal()} (never anything in the
 * arguments), and a domain refusal reaches the model as a {@link ToolException} with the same code and message.
 */
abstract class TaskTool implements Tool {
    private final ToolDefinition definition;

    TaskTool(String name, String description, String schemaJson, Set<String> permissions) {
        this.definition = new ToolDefinition(name, description, schema(schemaJson), permissions, null);
    }

    @Override
    public final ToolDefinition definition() {
        return definition;
    }

    @Override
    public final JsonNode execute(JsonNode arguments, ToolContext context) {
        try {
            return run(arguments == null ? TaskJson.MAPPER.createObjectNode() : arguments, context.principal());
        } catch (TaskException e) {
            throw new ToolException(e.code(), e.getMessage());
        }
    }

    /** Maps the arguments onto one service call made as {@code principal}. */
    abstract JsonNode run(JsonNode arguments, Principal principal);

    /** The task id argument; the schema makes it a required string. */
    static String taskId(JsonNode arguments) {
        JsonNode id = arguments.get("taskId");
        if (id == null || !id.isTextual()) throw TaskException.invalidArgument("taskId must be a string");
        return id.textValue();
    }

    private static JsonNode schema(String json) {
        try {
            return TaskJson.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("invalid built-in tool schema", e);
        }
    }
}
