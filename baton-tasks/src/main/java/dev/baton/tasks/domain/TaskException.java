package dev.baton.tasks.domain;

import dev.baton.core.domain.DomainException;

/**
 * Why the task domain refused a request. The message is precise and safe to show a user or a model: it never
 * reveals whether another user's task exists.
 */
public final class TaskException extends DomainException {

    public TaskException(Kind kind, String message) {
        super(kind, message);
    }

    public static TaskException invalidArgument(String message) {
        return new TaskException(Kind.INVALID_ARGUMENT, message);
    }

    public static TaskException malformed(String message) {
        return new TaskException(Kind.MALFORMED, message);
    }

    public static TaskException notFound(String taskId) {
        return new TaskException(
                Kind.NOT_FOUND, "No task with id '" + echoedId(taskId) + "'. List the tasks to find the right id.");
    }

    public static TaskException permissionDenied(String permission) {
        return new TaskException(Kind.PERMISSION_DENIED, permissionDeniedMessage(permission));
    }
}
