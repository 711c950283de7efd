package dev.baton.notes.domain;

import dev.baton.core.domain.DomainException;

/**
 * Why the notes domain refused a request. The message is safe to show a user or a model: it never reveals whether
 * another user's note exists.
 */
public final class NoteException extends DomainException {

    public NoteException(Kind kind, String message) {
        super(kind, message);
    }

    public static NoteException invalidArgument(String message) {
        return new NoteException(Kind.INVALID_ARGUMENT, message);
    }

    public static NoteException malformed(String message) {
        return new NoteException(Kind.MALFORMED, message);
    }

    public static NoteException notFound(String noteId) {
        return new NoteException(Kind.NOT_FOUND, "No note with id '" + echoedId(noteId) + "'.");
    }

    public static NoteException permissionDenied(String permission) {
        return new NoteException(Kind.PERMISSION_DENIED, permissionDeniedMessage(permission));
    }
}
