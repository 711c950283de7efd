package dev.baton.notes.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One note of one user.
 *
 * @param id a UUIDv7 string
 * @param sessionId the conversation the note was taken in (by the {@code create_note} tool); null when written by
 *     hand
 */
public record Note(
        String id,
        NoteOwner owner,
        String title,
        String content,
        String sessionId,
        Instant createdAt,
        Instant updatedAt) {

    public Note {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** This note with {@code update} applied. */
    public Note apply(NoteUpdate update, Instant now) {
        return new Note(
                id,
                owner,
                update.title() == null ? title : update.title(),
                update.content() == null ? content : update.content(),
                sessionId,
                createdAt,
                now);
    }
}
