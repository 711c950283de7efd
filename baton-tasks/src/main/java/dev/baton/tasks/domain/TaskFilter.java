package dev.baton.tasks.domain;

import java.util.Objects;

/**
 * Which of the caller's tasks to list.
 *
 * @param status which statuses; defaults to open
 * @param priority only this priority, or null for any
 * @param due only tasks due in this window, or null for any (including no due date)
 * @param tag only tasks carrying exactly this tag (case-insensitive), or null for any
 */
public record TaskFilter(StatusScope status, TaskPriority priority, DueWindow due, String tag) {

    /** The open tasks, whatever their priority, due date and tags. */
    public static final TaskFilter OPEN = new TaskFilter(StatusScope.OPEN, null, null, null);

    public TaskFilter {
        status = status == null ? StatusScope.OPEN : status;
        tag = tag == null ? null : TaskRules.tag(tag);
    }

    /**
     * Builds a filter from wire values; null means "not given".
     *
     * @param status open, completed or all
     * @param priority low, medium or high
     * @param due today, this_week, overdue or YYYY-MM-DD
     */
    public static TaskFilter of(String status, String priority, String due, String tag) {
        return new TaskFilter(
                status == null ? null : StatusScope.parse(status),
                priority == null ? null : TaskPriority.parse(priority),
                due == null ? null : DueWindow.parse(due),
                tag);
    }

    public TaskFilter withStatus(StatusScope newStatus) {
        return new TaskFilter(Objects.requireNonNull(newStatus), priority, due, tag);
    }

    public TaskFilter withPriority(TaskPriority newPriority) {
        return new TaskFilter(status, newPriority, due, tag);
    }

    public TaskFilter withDue(DueWindow newDue) {
        return new TaskFilter(status, priority, newDue, tag);
    }

    public TaskFilter withTag(String newTag) {
        return new TaskFilter(status, priority, due, newTag);
    }
}
