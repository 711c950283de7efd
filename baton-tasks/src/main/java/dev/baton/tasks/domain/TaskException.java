package dev.baton.tasks.domain;

import java.util.Objects;

/**
 * Why the task domain refused a request. The message is precise and safe to show a user or a model: it never
 * reveals whether another user's task exists.
 */
public final class TaskException extends RuntimeException {

    /** What the caller should do next, with its wire code. */
    public enum Kind {
        /** The request is not shaped right: not an object, an unknown field, a wrong type, a missing field. */
        MALFORMED("invalid_request"),
        /** The request is well formed but a value is not acceptable; fix the arguments. */
        INVALID_ARGUMENT("invalid_argument"),
        /** No such task for this user (including: it exists but belongs to someone else). */
        NOT_FOUND("not_found"),
        /** The caller lacks a permission the operation needs. */
        PERMISSION_DENIED("permission_denied");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final Kind kind;

    public TaskException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public static TaskException invalidArgument(String message) {
        return new TaskException(Kind.INVALID_ARGUMENT, message);
    }

    public static TaskException malformed(String message) {
        return new TaskException(Kind.MALFORMED, message);
    }

    public static TaskException notFound(String taskId) {
        return new TaskException(
                Kind.NOT_FOUND, "No task with id '" + abbreviate(taskId) + "'. List the tasks to find the right id.");
    }

    public static TaskException permissionDenied(String permission) {
        return new TaskException(Kind.PERMISSION_DENIED, "You are not allowed to do this (needs " + permission + ").");
    }

    public Kind kind() {
        return kind;
    }

    /** The wire code: "invalid_request", "invalid_argument", "not_found" or "permission_denied". */
    public String code() {
        return kind.code();
    }

    // an id echoed back must not let a caller blow up a message (or a log line) with a megabyte of text
    private static String abbreviate(String value) {
        if (value == null) return "";
        return value.length() <= 64 ? value : value.substring(0, 64) + "...";
    }
}
