package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.tasks.domain.TaskService;
import java.util.Set;

/** {@code complete_task}: marks one of the caller's tasks completed → {@code {"task": TASK}}. */
final class CompleteTaskTool extends TaskTool {
    static final String NAME = "complete_task";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "taskId": {"type": "string", "minLength": 1, "maxLength": 64,
                           "description": "The id of the task, from list_tasks or add_task"}
              },
              "required": ["taskId"],
              "additionalProperties": false
            }
            """;

    private final TaskService service;

    CompleteTaskTool(TaskService service) {
        super(NAME, "Mark one of the user's tasks as completed.", SCHEMA, Set.of(TaskService.WRITE));
        this.service = service;
    }

    @Override
    JsonNode run(JsonNode arguments, Principal principal) {
        var task = service.complete(principal, taskId(arguments));
        return TaskJson.MAPPER.createObjectNode().set("task", TaskJson.toJson(task));
    }
}
