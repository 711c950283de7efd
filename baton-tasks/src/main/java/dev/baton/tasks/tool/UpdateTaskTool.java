package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.tasks.domain.TaskService;
import java.util.Set;

/** {@code update_task}: changes fields of one of the caller's tasks → {@code {"task": TASK}}. */
final class UpdateTaskTool extends TaskTool {
    static final String NAME = "update_task";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "taskId": {"type": "string", "minLength": 1, "maxLength": 64,
                           "description": "The id of the task, from list_tasks or add_task"},
                "title": {"type": "string", "minLength": 1, "maxLength": 200},
                "description": {"type": ["string", "null"], "maxLength": 2000, "description": "null removes it"},
                "dueDate": {"type": ["string", "null"], "maxLength": 64, "description":
                  "An ISO date YYYY-MM-DD (end of that day, UTC) or ISO date-time; null removes the due date"},
                "priority": {"type": "string", "enum": ["low", "medium", "high"]},
                "tags": {"type": "array", "maxItems": 10,
                         "items": {"type": "string", "minLength": 1, "maxLength": 40},
                         "description": "Replaces all tags"}
              },
              "required": ["taskId"],
              "additionalProperties": false
            }
            """;

    private final TaskService service;

    UpdateTaskTool(TaskService service) {
        super(
                NAME,
                "Change one of the user's tasks; only the fields given are changed.",
                SCHEMA,
                Set.of(TaskService.WRITE));
        this.service = service;
    }

    @Override
    JsonNode run(JsonNode arguments, Principal principal) {
        String taskId = taskId(arguments);
        ObjectNode changes = arguments.deepCopy();
        changes.remove("taskId");
        var task = service.update(principal, taskId, TaskJson.parseUpdate(changes));
        return TaskJson.MAPPER.createObjectNode().set("task", TaskJson.toJson(task));
    }
}
