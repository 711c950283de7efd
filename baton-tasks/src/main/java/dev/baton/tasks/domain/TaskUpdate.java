package dev.baton.tasks.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Changes to a task; a field left empty (or {@link Patch#keep()}) is not touched. Description and due date can
 * also be cleared. Values are validated with the same rules as {@link NewTask}. Build one from {@link #NONE}
 * with the {@code with...} methods.
 */
public record TaskUpdate(
        Optional<String> title,
        Patch<String> description,
        Patch<Instant> dueAt,
        Optional<TaskPriority> priority,
        Optional<List<String>> tags) {

    /** No change at all. */
    public static final TaskUpdate NONE =
            new TaskUpdate(Optional.empty(), Patch.keep(), Patch.keep(), Optional.empty(), Optional.empty());

    public TaskUpdate {
        title = Objects.requireNonNull(title, "title").map(TaskRules::title);
        Objects.requireNonNull(description, "description");
        if (description instanceof Patch.Replace<String> r) {
            // a blank description is no description
            description = Patch.replaceOrClear(TaskRules.description(r.value()));
        }
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(priority, "priority");
        tags = Objects.requireNonNull(tags, "tags").map(TaskRules::tags);
    }

    public TaskUpdate withTitle(String newTitle) {
        return new TaskUpdate(Optional.of(TaskRules.title(newTitle)), description, dueAt, priority, tags);
    }

    /** Sets the description; null or blank clears it. */
    public TaskUpdate withDescription(String newDescription) {
        return new TaskUpdate(title, Patch.replaceOrClear(newDescription), dueAt, priority, tags);
    }

    /** Sets the due instant; null clears it. */
    public TaskUpdate withDueAt(Instant newDueAt) {
        return new TaskUpdate(title, description, Patch.replaceOrClear(newDueAt), priority, tags);
    }

    /** Sets the due date from an ISO date or date-time (see {@link TaskRules#dueDate}); null clears it. */
    public TaskUpdate withDueDate(String newDueDate) {
        return withDueAt(newDueDate == null ? null : TaskRules.dueDate(newDueDate));
    }

    public TaskUpdate withPriority(TaskPriority newPriority) {
        return new TaskUpdate(title, description, dueAt, Optional.of(newPriority), tags);
    }

    public TaskUpdate withTags(List<String> newTags) {
        return new TaskUpdate(title, description, dueAt, priority, Optional.of(TaskRules.tags(newTags)));
    }

    /** True when applying this would change nothing. */
    public boolean isEmpty() {
        return title.isEmpty() && description.isKeep() && dueAt.isKeep() && priority.isEmpty() && tags.isEmpty();
    }
}
