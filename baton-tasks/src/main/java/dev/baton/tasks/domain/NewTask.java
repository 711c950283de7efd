package dev.baton.tasks.domain;

import java.time.Instant;
import java.util.List;

/**
 * What a caller asks for when adding a task. Validated on construction: title 1-200 characters after trimming,
 * description at most 2000, at most 10 tags of 1-40 characters. Priority defaults to medium.
 *
 * @param dueAt when the task is due, or null
 */
public record NewTask(String title, String description, Instant dueAt, TaskPriority priority, List<String> tags) {
    public NewTask {
        title = TaskRules.title(title);
        description = TaskRules.description(description);
        priority = priority == null ? TaskPriority.MEDIUM : priority;
        tags = TaskRules.tags(tags);
    }

    /** A task with just a title. */
    public static NewTask titled(String title) {
        return new NewTask(title, null, null, null, List.of());
    }

    /**
     * Builds a new task from wire values (any may be null except the title).
     *
     * @param dueDate an ISO date or date-time, see {@link TaskRules#dueDate}
     * @param priority low, medium or high
     */
    public static NewTask of(String title, String description, String dueDate, String priority, List<String> tags) {
        return new NewTask(
                title,
                description,
                dueDate == null ? null : TaskRules.dueDate(dueDate),
                priority == null ? null : TaskPriority.parse(priority),
                tags);
    }
}
