package dev.baton.notes.store;

import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteOwner;
import dev.baton.notes.domain.NoteRepository;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows;
import dev.baton.store.jdbc.OwnedRows.Value;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Notes in the {@code notes} table of a {@link Database} (SQLite or PostgreSQL). Every statement is scoped by
 * tenant and user (see {@link OwnedRows}), so one owner can never read or touch another's rows.
 */
public final class JdbcNoteRepository implements NoteRepository {
    private static final String COLUMNS = "id, tenant_id, user_id, title, content, session_id, created_at, updated_at";

    private final ColumnCodec codec;
    private final OwnedRows<Note> rows;

    public JdbcNoteRepository(Database database) {
        Objects.requireNonNull(database, "database");
        this.codec = database.columns();
        this.rows = new OwnedRows<>(database, "notes", COLUMNS, this::read, note -> owner(note.owner()), Note::id);
    }

    @Override
    public void insert(Note note) {
        rows.insert(
                note,
                List.of(
                        Value.text("title", note.title()),
                        Value.text("content", note.content()),
                        Value.text("session_id", note.sessionId()),
                        rows.instant("created_at", note.createdAt()),
                        rows.instant("updated_at", note.updatedAt())));
    }

    @Override
    public Optional<Note> find(NoteOwner owner, String id) {
        return rows.find(owner(owner), id);
    }

    @Override
    public List<Note> newest(NoteOwner owner, int limit) {
        return rows.list(owner(owner), "", List.of(), "created_at DESC, id DESC", limit);
    }

    @Override
    public Optional<Note> update(NoteOwner owner, String id, UnaryOperator<Note> change) {
        return rows.update(
                owner(owner),
                id,
                change,
                changed -> List.of(
                        Value.text("title", changed.title()),
                        Value.text("content", changed.content()),
                        rows.instant("updated_at", changed.updatedAt())));
    }

    @Override
    public boolean delete(NoteOwner owner, String id) {
        return rows.delete(owner(owner), id);
    }

    private static OwnedRows.Owner owner(NoteOwner owner) {
        return new OwnedRows.Owner(owner.tenantId(), owner.userId());
    }

    private Note read(ResultSet rs) throws SQLException {
        return new Note(
                rs.getString("id"),
                new NoteOwner(rs.getString("tenant_id"), rs.getString("user_id")),
                rs.getString("title"),
                rs.getString("content"),
                rs.getString("session_id"),
                codec.getInstant(rs, "created_at"),
                codec.getInstant(rs, "updated_at"));
    }
}
