package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.tasks.domain.TaskService;
import java.util.Set;

/** {@code list_tasks}: the caller's tasks matching a filter → {@code {"tasks": [TASK...], "count": N}}. */
final class ListTasksTool extends TaskTool {
    static final String NAME = "list_tasks";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "status": {"type": "string", "enum": ["open", "completed", "all"], "default": "open",
                           "description": "Which tasks by status; defaults to open"},
                "priority": {"type": "string", "enum": ["low", "medium", "high"]},
                "due": {"type": "string", "pattern": "^(today|this_week|overdue|[0-9]{4}-[0-9]{2}-[0-9]{2})$",
                        "description": "today, this_week (Monday to Sunday), overdue (past due and still open) or a date YYYY-MM-DD"},
                "tag": {"type": "string", "minLength": 1, "maxLength": 40, "description": "Only tasks with exactly this tag"}
              },
              "additionalProperties": false
            }
            """;

    private final TaskService service;

    ListTasksTool(TaskService service) {
        super(
                NAME,
                "List the user's tasks, soonest due first (open tasks unless a status is given). Use it to find a"
                        + " task's id before completing, updating or deleting it.",
                SCHEMA,
                Set.of(TaskService.READ));
        this.service = service;
    }

    @Override
    JsonNode run(JsonNode arguments, Principal principal) {
        return TaskJson.toJson(service.list(principal, TaskJson.parseFilter(arguments)));
    }
}
