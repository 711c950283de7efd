package dev.baton.notes.store;

import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteOwner;
import dev.baton.notes.domain.NoteRepository;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Notes in the {@code notes} table of a {@link Database} (SQLite or PostgreSQL). Every statement is scoped by
 * tenant and user, so one owner can never read or touch another's rows.
 */
public final class JdbcNoteRepository implements NoteRepository {
    private static final String COLUMNS = "id, tenant_id, user_id, title, content, session_id, created_at, updated_at";
    private static final String OWNED = " WHERE tenant_id = ? AND user_id = ?";

    private final Database database;
    private final ColumnCodec codec;
    private final String lockForUpdate;

    public JdbcNoteRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
        this.codec = database.columns();
        // SQLite write transactions begin IMMEDIATE and already hold the write lock
        this.lockForUpdate = database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE" : "";
    }

    @Override
    public void insert(Note note) {
        database.inTransaction(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO notes (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, note.id());
                ps.setString(2, note.owner().tenantId());
                ps.setString(3, note.owner().userId());
                ps.setString(4, note.title());
                ps.setString(5, note.content());
                ps.setString(6, note.sessionId());
                codec.setInstant(ps, 7, note.createdAt());
                codec.setInstant(ps, 8, note.updatedAt());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<Note> find(NoteOwner owner, String id) {
        return database.withConnection(c -> select(c, owner, id, ""));
    }

    @Override
    public List<Note> newest(NoteOwner owner, int limit) {
        return database.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM notes" + OWNED + " ORDER BY created_at DESC, id DESC LIMIT ?")) {
                ps.setString(1, owner.tenantId());
                ps.setString(2, owner.userId());
                ps.setInt(3, limit);
                List<Note> notes = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) notes.add(read(rs));
                }
                return notes;
            }
        });
    }

    @Override
    public Optional<Note> update(NoteOwner owner, String id, UnaryOperator<Note> change) {
        return database.inTransaction(c -> {
            Optional<Note> current = select(c, owner, id, lockForUpdate);
            if (current.isEmpty()) return Optional.empty();
            Note changed = change.apply(current.get());
            if (!changed.id().equals(id) || !changed.owner().equals(owner))
                throw new IllegalStateException("an update must not change a note's id or owner");
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE notes SET title = ?, content = ?, updated_at = ?" + OWNED + " AND id = ?")) {
                ps.setString(1, changed.title());
                ps.setString(2, changed.content());
                codec.setInstant(ps, 3, changed.updatedAt());
                ps.setString(4, owner.tenantId());
                ps.setString(5, owner.userId());
                ps.setString(6, id);
                ps.executeUpdate();
            }
            return Optional.of(changed);
        });
    }

    @Override
    public boolean delete(NoteOwner owner, String id) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM notes" + OWNED + " AND id = ?")) {
                ps.setString(1, owner.tenantId());
                ps.setString(2, owner.userId());
                ps.setString(3, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private Optional<Note> select(Connection c, NoteOwner owner, String id, String suffix) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM notes" + OWNED + " AND id = ?" + suffix)) {
            ps.setString(1, owner.tenantId());
            ps.setString(2, owner.userId());
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
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
