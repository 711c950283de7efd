package dev.baton.tasks.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link TaskFilter} resolved against the owner and the clock: what the repository runs. Ordered by due date
 * (tasks without one last), then creation.
 *
 * @param statuses at least one status
 * @param priority null for any
 * @param dueFrom inclusive lower bound on the due instant, or null
 * @param dueBefore exclusive upper bound on the due instant, or null; either bound excludes undated tasks
 * @param tag exact normalised tag, or null
 * @param limit at most this many rows
 */
public record TaskQuery(
        TaskOwner owner,
        Set<TaskStatus> statuses,
        TaskPriority priority,
        Instant dueFrom,
        Instant dueBefore,
        String tag,
        int limit) {
    public TaskQuery {
        Objects.requireNonNull(owner, "owner");
        statuses = Set.copyOf(statuses);
        if (statuses.isEmpty()) throw new IllegalArgumentException("statuses is empty");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1");
    }
}
