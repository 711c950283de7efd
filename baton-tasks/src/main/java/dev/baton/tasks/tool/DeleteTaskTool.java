package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.DomainException;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskService;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;

/**
 * {@code delete_task}: deletes one of the caller's tasks → {@code {"deleted": true, "taskId": "..."}}. Refuses
 * with code confirmation_required unless {@code confirmation} is true. The tool is destructive: under the default
 * approval policy the runtime holds each call until the user approves it (or denies it), so the model's
 * {@code confirmation} is never the only safeguard.
 */
final class DeleteTaskTool extends TaskTool {
    static final String NAME = "delete_task";
    static final String CONFIRMATION_REQUIRED = "confirmation_required";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "taskId": {"type": "string", "minLength": 1, "maxLength": 64,
                           "description": "The id of the task, from list_tasks or add_task"},
                "confirmation": {"type": "boolean",
                                 "description": "true only after the user has explicitly confirmed this deletion"}
              },
              "required": ["taskId", "confirmation"],
              "additionalProperties": false
            }
            """;

    private final TaskService service;

    DeleteTaskTool(TaskService service) {
        super(
                NAME,
                "Delete one of the user's tasks for good. Only for a task the user asked to delete, with"
                        + " confirmation: true; the user may be asked to approve the call before it runs.",
                SCHEMA,
                Set.of(TaskService.WRITE),
                true);
        this.service = service;
    }

    @Override
    JsonNode run(JsonNode arguments, Principal principal) {
        String taskId = taskId(arguments);
        JsonNode confirmation = arguments.get("confirmation");
        if (confirmation == null || !confirmation.isBoolean() || !confirmation.booleanValue()) {
            throw new ToolException(
                    CONFIRMATION_REQUIRED,
                    "Deleting needs the user's explicit confirmation: ask them, then call delete_task again with"
                            + " confirmation: true.");
        }
        service.delete(principal, taskId);
        return TaskJson.MAPPER.createObjectNode().put("deleted", true).put("taskId", taskId);
    }

    /**
     * "Delete the task 'buy wax' (due 2026-11-20)": the task's title (and due day, UTC) instead of its id, read as the
     * caller, so a prompt never names another user's task. Empty when the task is not the caller's or does not exist
     * (the runtime then shows the raw arguments, and the call would fail anyway).
     */
    @Override
    public Optional<String> summary(JsonNode arguments, ToolContext context) {
        JsonNode id = arguments == null ? null : arguments.get("taskId");
        if (id == null || !id.isTextual()) return Optional.empty();
        try {
            Task task = service.get(context.principal(), id.textValue());
            String due = task.dueAt() == null
                    ? ""
                    : " (due " + task.dueAt().atZone(ZoneOffset.UTC).toLocalDate() + ")";
            return Optional.of("Delete the task '" + oneLine(task.title()) + "'" + due);
        } catch (DomainException e) {
            return Optional.empty();
        }
    }

    /** A title as one short line: a prompt is one sentence, whatever the title holds. */
    private static String oneLine(String title) {
        String flat = title.replaceAll("\\s+", " ").strip();
        return flat.length() <= 120 ? flat : flat.substring(0, 119) + "…";
    }
}
