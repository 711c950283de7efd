package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.DomainTool;
import dev.baton.core.tool.ToolContext;
import dev.baton.tasks.domain.TaskException;
import dev.baton.tasks.domain.TaskService;
import java.util.Set;

/**
 * What all task tools share: the caller is always {@code context.principal()} (never anything in the
 * arguments), missing arguments read as none, and a domain refusal reaches the model as a tool error with the
 * same code and message (see {@link DomainTool}).
 */
abstract class TaskTool extends DomainTool {

    TaskTool(String name, String description, String schemaJson, Set<String> permissions) {
        this(name, description, schemaJson, permissions, false);
    }

    /**
     * A tool that needs {@link TaskService#WRITE} writes the tasks table and nothing else: it is transactional, so in a
     * durable turn its write commits with the record of its call.
     */
    TaskTool(String name, String description, String schemaJson, Set<String> permissions, boolean destructive) {
        super(name, description, schemaJson, permissions, destructive, permissions.contains(TaskService.WRITE));
    }

    @Override
    protected final JsonNode run(JsonNode arguments, ToolContext context) {
        return run(arguments == null ? TaskJson.MAPPER.createObjectNode() : arguments, context.principal());
    }

    /** Maps the arguments onto one service call made as {@code principal}. */
    abstract JsonNode run(JsonNode arguments, Principal principal);

    /** The task id argument; the schema makes it a required string. */
    static String taskId(JsonNode arguments) {
        JsonNode id = arguments.get("taskId");
        if (id == null || !id.isTextual()) throw TaskException.invalidArgument("taskId must be a string");
        return id.textValue();
    }
}
