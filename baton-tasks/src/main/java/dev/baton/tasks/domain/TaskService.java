package dev.baton.tasks.domain;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task domain: everything a user can do with their own tasks. Used alike by the REST API and the tools.
 *
 * <p>Every method acts as the given principal: it checks the principal's permissions itself (even though the
 * tool executor already did) and only ever sees that principal's tasks. Another user's task is reported as
 * not found, exactly like a task that never existed.
 */
public final class TaskService {
    /** Needed to read one's own tasks. */
    public static final String READ = "tasks:read:self";
    /** Needed to add, change, complete or delete one's own tasks. */
    public static final String WRITE = "tasks:write:self";
    /** A listing returns at most this many tasks. */
    public static final int MAX_LISTED = 200;

    private static final Logger log = LoggerFactory.getLogger(TaskService.class);
    private static final int MAX_ID = 64;

    private final TaskRepository repository;
    private final Clock clock;

    public TaskService(TaskRepository repository, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Task create(Principal principal, NewTask spec) {
        require(principal, WRITE);
        Objects.requireNonNull(spec, "spec");
        Task task = Task.create(Ids.newId(), TaskOwner.of(principal), spec, now());
        repository.insert(task);
        log.debug("task {} created for user {}", task.id(), principal.userId());
        return task;
    }

    /** @throws TaskException not_found unless the principal owns a task with this id */
    public Task get(Principal principal, String taskId) {
        require(principal, READ);
        checkId(taskId);
        return repository.find(TaskOwner.of(principal), taskId).orElseThrow(() -> TaskException.notFound(taskId));
    }

    /** The principal's tasks matching {@code filter}, soonest due first, at most {@value #MAX_LISTED}. */
    public List<Task> list(Principal principal, TaskFilter filter) {
        require(principal, READ);
        Objects.requireNonNull(filter, "filter");
        Instant now = now();
        Set<TaskStatus> statuses = EnumSet.copyOf(filter.status().statuses());
        Instant dueFrom = null;
        Instant dueBefore = null;
        if (filter.due() != null) {
            DueWindow.DueRange range = filter.due().range(now);
            dueFrom = range.from();
            dueBefore = range.before();
            if (filter.due().openOnly()) statuses.retainAll(Set.of(TaskStatus.OPEN));
        }
        if (statuses.isEmpty()) return List.of(); // e.g. completed and overdue: nothing can match
        return repository.find(new TaskQuery(
                TaskOwner.of(principal), statuses, filter.priority(), dueFrom, dueBefore, filter.tag(), MAX_LISTED));
    }

    /** Marks the task completed; completing a completed task is not an error. */
    public Task complete(Principal principal, String taskId) {
        require(principal, WRITE);
        checkId(taskId);
        Instant now = now();
        return repository
                .update(TaskOwner.of(principal), taskId, task -> task.complete(now))
                .orElseThrow(() -> TaskException.notFound(taskId));
    }

    /** @throws TaskException invalid_argument when {@code update} changes nothing */
    public Task update(Principal principal, String taskId, TaskUpdate update) {
        require(principal, WRITE);
        Objects.requireNonNull(update, "update");
        if (update.isEmpty()) {
            throw TaskException.invalidArgument(
                    "nothing to update: give at least one of title, description, dueDate, priority, tags");
        }
        checkId(taskId);
        Instant now = now();
        return repository
                .update(TaskOwner.of(principal), taskId, task -> task.apply(update, now))
                .orElseThrow(() -> TaskException.notFound(taskId));
    }

    public void delete(Principal principal, String taskId) {
        require(principal, WRITE);
        checkId(taskId);
        if (!repository.delete(TaskOwner.of(principal), taskId)) throw TaskException.notFound(taskId);
        log.debug("task {} deleted for user {}", taskId, principal.userId());
    }

    private static void require(Principal principal, String permission) {
        Objects.requireNonNull(principal, "principal");
        if (!principal.hasPermission(permission)) throw TaskException.permissionDenied(permission);
    }

    // an id that cannot exist is "not found" without asking the database
    private static void checkId(String taskId) {
        if (taskId == null || taskId.isBlank() || taskId.length() > MAX_ID) throw TaskException.notFound(taskId);
    }

    // the database keeps milliseconds; truncating here makes what we return equal to what a re-read gives
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
