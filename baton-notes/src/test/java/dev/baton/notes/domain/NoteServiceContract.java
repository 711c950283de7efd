package dev.baton.notes.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.notes.NotesModule;
import dev.baton.store.jdbc.Database;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What the notes service does on every database; subclasses give the database. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NoteServiceContract {
    static final Instant NOW = Instant.parse("2026-03-01T10:00:00.123456Z");
    static final Set<String> RW = Set.of(NoteService.READ, NoteService.WRITE);

    Database db;
    NoteService notes;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase(), List.of(NotesModule.MIGRATIONS));
        notes = NotesModule.create(db, Clock.fixed(NOW, ZoneOffset.UTC)).service();
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    static Principal user(Set<String> permissions) {
        return new Principal("u-" + Ids.newId(), "t1", null, null, Set.of("student"), permissions, List.of());
    }

    @Test
    void a_note_is_created_read_listed_updated_and_deleted_by_its_owner() {
        Principal alice = user(RW);
        Note a = notes.create(alice, new NewNote("  Cells  ", "Mitochondria make ATP.", "s-1"));
        Note b = notes.create(alice, new NewNote("Plants", "Chlorophyll is green.", null));

        assertThat(a.title()).isEqualTo("Cells");
        assertThat(notes.get(alice, a.id())).isEqualTo(a);
        assertThat(notes.list(alice)).extracting(Note::id).containsExactly(b.id(), a.id());
        Note changed = notes.update(alice, a.id(), new NoteUpdate(null, "ATP, mostly."));
        assertThat(changed.content()).isEqualTo("ATP, mostly.");
        assertThat(changed.title()).isEqualTo("Cells");
        assertThat(notes.get(alice, a.id())).isEqualTo(changed);
        notes.delete(alice, a.id());
        assertThat(notes.list(alice)).extracting(Note::id).containsExactly(b.id());
    }

    @Test
    void another_users_note_is_not_found_for_every_operation() {
        Principal alice = user(RW);
        Principal bob = user(RW);
        Note a = notes.create(alice, new NewNote("Mine", "private", null));

        for (Runnable r : List.<Runnable>of(
                () -> notes.get(bob, a.id()),
                () -> notes.update(bob, a.id(), new NoteUpdate("x", null)),
                () -> notes.delete(bob, a.id()))) {
            assertThatThrownBy(r::run)
                    .isInstanceOfSatisfying(
                            NoteException.class, e -> assertThat(e.kind()).isEqualTo(NoteException.Kind.NOT_FOUND));
        }
        assertThat(notes.list(bob)).isEmpty();
        assertThat(notes.get(alice, a.id()).content()).isEqualTo("private");
    }

    @Test
    void permissions_and_values_are_checked() {
        Principal readOnly = user(Set.of(NoteService.READ));
        assertThatThrownBy(() -> notes.create(readOnly, new NewNote("t", "c", null)))
                .isInstanceOfSatisfying(
                        NoteException.class, e -> assertThat(e.kind()).isEqualTo(NoteException.Kind.PERMISSION_DENIED));
        assertThatThrownBy(() -> new NewNote("x".repeat(201), "c", null))
                .isInstanceOfSatisfying(
                        NoteException.class, e -> assertThat(e.kind()).isEqualTo(NoteException.Kind.INVALID_ARGUMENT));
        assertThatThrownBy(() -> new NewNote("t", "   ", null)).isInstanceOf(NoteException.class);
        Principal alice = user(RW);
        Note a = notes.create(alice, new NewNote("t", "c", null));
        assertThatThrownBy(() -> notes.update(alice, a.id(), new NoteUpdate(null, null)))
                .isInstanceOfSatisfying(
                        NoteException.class, e -> assertThat(e.kind()).isEqualTo(NoteException.Kind.INVALID_ARGUMENT));
    }
}
