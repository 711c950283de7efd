package dev.baton.notes.domain;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Where notes are kept. Every method is scoped to one owner: a note of another owner is simply not there. */
public interface NoteRepository {

    void insert(Note note);

    Optional<Note> find(NoteOwner owner, String id);

    /** The owner's newest notes first, at most {@code limit}. */
    List<Note> newest(NoteOwner owner, int limit);

    /** Reads the owner's note, applies {@code change} and stores the result, atomically; empty when none. */
    Optional<Note> update(NoteOwner owner, String id, UnaryOperator<Note> change);

    /** @return whether the owner had such a note */
    boolean delete(NoteOwner owner, String id);
}
