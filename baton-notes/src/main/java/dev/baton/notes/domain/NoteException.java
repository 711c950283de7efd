package dev.baton.notes.domain;

import java.util.Objects;

/**
 * Why the notes domain refused a request. The message is safe to show a user or a model: it never reveals whether
 * another user's note exists.
 */
public final class NoteException extends RuntimeException {

    /** What the caller should do next, with its wire code. */
    public enum Kind {
        /** Not shaped right: not an object, an unknown field, a wrong type, a missing field. */
        MALFORMED("invalid_request"),
        /** Well formed, but a value is not acceptable. */
        INVALID_ARGUMENT("invalid_argument"),
        /** No such note for this user (including: it belongs to someone else). */
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

    public NoteException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public static NoteException invalidArgument(String message) {
        return new NoteException(Kind.INVALID_ARGUMENT, message);
    }

    public static NoteException malformed(String message) {
        return new NoteException(Kind.MALFORMED, message);
    }

    public static NoteException notFound(String noteId) {
        String id = noteId == null ? "" : noteId.length() <= 64 ? noteId : noteId.substring(0, 64) + "...";
        return new NoteException(Kind.NOT_FOUND, "No note with id '" + id + "'.");
    }

    public static NoteException permissionDenied(String permission) {
        return new NoteException(Kind.PERMISSION_DENIED, "You are not allowed to do this (needs " + permission + ").");
    }

    public Kind kind() {
        return kind;
    }

    /** The wire code: invalid_request, invalid_argument, not_found or permission_denied. */
    public String code() {
        return kind.code();
    }
}
