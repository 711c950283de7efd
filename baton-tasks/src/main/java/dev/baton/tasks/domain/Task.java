package dev.baton.tasks.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One to-do item of one user.
 *
 * @param id a UUIDv7 string
 * @param description null when there is none
 * @param dueAt when it is due, or null
 * @param tags normalised (trimmed, lower-case, distinct)
 */
public record Task(
        String id,
        TaskOwner owner,
        String title,
        String description,
        Instant dueAt,
        TaskPriority priority,
        List<String> tags,
        TaskStatus status,
        Instant createdAt,
        Instant updatedAt) {

    public Task {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(priority, "priority");
        tags = List.copyOf(tags == null ? List.of() : tags);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** A new open task. */
    public static Task create(String id, TaskOwner owner, NewTask spec, Instant now) {
        return new Task(
                id,
                owner,
                spec.title(),
                spec.description(),
                spec.dueAt(),
                spec.priority(),
                spec.tags(),
                TaskStatus.OPEN,
                now,
                now);
    }

    /** This task marked completed; completing a completed task changes nothing. */
    public Task complete(Instant now) {
        if (status == TaskStatus.COMPLETED) return this;
        return new Task(id, owner, title, description, dueAt, priority, tags, TaskStatus.COMPLETED, createdAt, now);
    }

    /** This task with {@code update} applied. */
    public Task apply(TaskUpdate update, Instant now) {
        return new Task(
                id,
                owner,
                update.title().orElse(title),
                update.description().applyTo(description),
                update.dueAt().applyTo(dueAt),
                update.priority().orElse(priority),
                update.tags().orElse(tags),
                status,
                createdAt,
                now);
    }
}
