package dev.baton.notes.domain;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * The notes domain: everything a user can do with their own notes. Used alike by the REST API ({@code /v1/notes})
 * and the {@code create_note} tool.
 *
 * <p>Every method acts as the given principal: it checks the principal's permissions itself (even though the tool
 * executor already did) and only ever sees that principal's notes. Another user's note is reported as not found,
 * exactly like one that never existed.
 */
public final class NoteService {
    /** Needed to read one's own notes. */
    public static final String READ = "notes:read:self";
    /** Needed to take, change or delete one's own notes. */
    public static final String WRITE = "notes:write:self";
    /** A listing returns at most this many notes. */
    public static final int MAX_LISTED = 200;

    private static final int MAX_ID = 64;

    private final NoteRepository repository;
    private final Clock clock;

    public NoteService(NoteRepository repository, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Note create(Principal principal, NewNote spec) {
        require(principal, WRITE);
        Objects.requireNonNull(spec, "spec");
        Instant now = now();
        Note note = new Note(
                Ids.newId(), NoteOwner.of(principal), spec.title(), spec.content(), spec.sessionId(), now, now);
        repository.insert(note);
        return note;
    }

    /** @throws NoteException not_found unless the principal owns a note with this id */
    public Note get(Principal principal, String noteId) {
        require(principal, READ);
        checkId(noteId);
        return repository.find(NoteOwner.of(principal), noteId).orElseThrow(() -> NoteException.notFound(noteId));
    }

    /** The principal's notes, newest first, at most {@value #MAX_LISTED}. */
    public List<Note> list(Principal principal) {
        require(principal, READ);
        return repository.newest(NoteOwner.of(principal), MAX_LISTED);
    }

    /** @throws NoteException invalid_argument when {@code update} changes nothing */
    public Note update(Principal principal, String noteId, NoteUpdate update) {
        require(principal, WRITE);
        Objects.requireNonNull(update, "update");
        if (update.isEmpty()) throw NoteException.invalidArgument("nothing to update: give title or content");
        checkId(noteId);
        Instant now = now();
        return repository
                .update(NoteOwner.of(principal), noteId, note -> note.apply(update, now))
                .orElseThrow(() -> NoteException.notFound(noteId));
    }

    public void delete(Principal principal, String noteId) {
        require(principal, WRITE);
        checkId(noteId);
        if (!repository.delete(NoteOwner.of(principal), noteId)) throw NoteException.notFound(noteId);
    }

    private static void require(Principal principal, String permission) {
        Objects.requireNonNull(principal, "principal");
        if (!principal.hasPermission(permission)) throw NoteException.permissionDenied(permission);
    }

    // an id that cannot exist is "not found" without asking the database
    private static void checkId(String noteId) {
        if (noteId == null || noteId.isBlank() || noteId.length() > MAX_ID) throw NoteException.notFound(noteId);
    }

    // the database keeps microseconds; truncating here makes what we return equal to what a re-read gives
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
