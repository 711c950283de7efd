package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.tasks.domain.TaskService;
import java.util.Set;

/** {@code add_task}: adds a task for the caller → {@code {"task": TASK}}. */
final class AddTaskTool extends TaskTool {
    static final String NAME = "add_task";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "title": {"type": "string", "minLength": 1, "maxLength": 200,
                          "description": "Short title of the task"},
                "description": {"type": "string", "maxLength": 2000, "description": "Optional details"},
                "dueDate": {"type": "string", "maxLength": 64, "description":
                  "When it is due: an ISO date YYYY-MM-DD (due by the end of that day, UTC) or an ISO date-time such as 2026-11-21T17:00:00Z. Resolve relative dates with get_current_time first."},
                "priority": {"type": "string", "enum": ["low", "medium", "high"],
                             "description": "Defaults to medium"},
                "tags": {"type": "array", "maxItems": 10,
                         "items": {"type": "string", "minLength": 1, "maxLength": 40},
                         "description": "Optional labels such as work or home"}
              },
              "required": ["title"],
              "additionalProperties": false
            }
            """;

    private final TaskService service;

    AddTaskTool(TaskService service) {
        super(
                NAME,
                "Add a task to the user's to-do list. Returns the created task.",
                SCHEMA,
                Set.of(TaskService.WRITE));
        this.service = service;
    }

    @Override
    JsonNode run(JsonNode arguments, Principal principal) {
        var task = service.create(principal, TaskJson.parseNewTask(arguments));
        return TaskJson.MAPPER.createObjectNode().set("task", TaskJson.toJson(task));
    }
}
