package dev.baton.learning;

import dev.baton.core.domain.DomainException;

/**
 * Why the learning domain refused a request. The message is precise and safe to show a user or a model: it never
 * reveals whether another user's record exists, and echoes at most a bounded piece of what the caller sent.
 */
public final class LearningException extends DomainException {

    public LearningException(Kind kind, String message) {
        super(kind, message);
    }

    public static LearningException malformed(String message) {
        return new LearningException(Kind.MALFORMED, message);
    }

    public static LearningException invalidArgument(String message) {
        return new LearningException(Kind.INVALID_ARGUMENT, message);
    }

    public static LearningException conflict(String message) {
        return new LearningException(Kind.CONFLICT, message);
    }

    /** @param what the kind of record, e.g. "course" */
    public static LearningException notFound(String what, String id) {
        return new LearningException(Kind.NOT_FOUND, "No " + what + " with id '" + echoedId(id) + "'.");
    }

    public static LearningException permissionDenied(String permission) {
        return new LearningException(Kind.PERMISSION_DENIED, permissionDeniedMessage(permission));
    }

    /** An id or text as a message may echo it (bounded). */
    public static String echo(String value) {
        return echoedId(value);
    }
}
