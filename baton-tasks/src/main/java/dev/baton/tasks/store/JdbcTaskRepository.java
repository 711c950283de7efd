package dev.baton.tasks.store;

import dev.baton.store.jdbc.Database;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskOwner;
import dev.baton.tasks.domain.TaskPriority;
import dev.baton.tasks.domain.TaskQuery;
import dev.baton.tasks.domain.TaskRepository;
import dev.baton.tasks.domain.TaskStatus;
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
 * Tasks in the {@code tasks} table of a {@link Database} (SQLite or PostgreSQL). Every statement is scoped by
 * tenant and user, so one owner can never read or touch another's rows.
 */
public final class JdbcTaskRepository implements TaskRepository {
    private static final String COLUMNS =
            "id, tenant_id, user_id, title, description, due_at, priority, tags, status, created_at, updated_at";
    private static final String OWNED = " WHERE tenant_id = ? AND user_id = ?";

    private final Database database;
    private final DialectSql sql;

    public JdbcTaskRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
        this.sql = DialectSql.of(database.dialect());
    }

    @Override
    public void insert(Task task) {
        String insert = "INSERT INTO tasks (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, " + sql.tagsPlaceholder()
                + ", ?, ?, ?)";
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(insert)) {
                ps.setString(1, task.id());
                ps.setString(2, task.owner().tenantId());
                ps.setString(3, task.owner().userId());
                ps.setString(4, task.title());
                ps.setString(5, task.description());
                sql.bindInstant(ps, 6, task.dueAt());
                ps.setString(7, task.priority().wireName());
                ps.setString(8, DialectSql.tagsToJson(task.tags()));
                ps.setString(9, task.status().wireName());
                sql.bindInstant(ps, 10, task.createdAt());
                sql.bindInstant(ps, 11, task.updatedAt());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<Task> find(TaskOwner owner, String id) {
        return database.withConnection(c -> select(c, owner, id, ""));
    }

    @Override
    public List<Task> find(TaskQuery query) {
        StringBuilder select = new StringBuilder("SELECT " + COLUMNS + " FROM tasks" + OWNED);
        List<Binder> params = new ArrayList<>();
        params.add((ps, i) -> ps.setString(i, query.owner().tenantId()));
        params.add((ps, i) -> ps.setString(i, query.owner().userId()));

        select.append(" AND status IN (");
        String separator = "";
        for (TaskStatus status : query.statuses()) {
            select.append(separator).append('?');
            separator = ", ";
            params.add((ps, i) -> ps.setString(i, status.wireName()));
        }
        select.append(')');
        if (query.priority() != null) {
            select.append(" AND priority = ?");
            params.add((ps, i) -> ps.setString(i, query.priority().wireName()));
        }
        if (query.dueFrom() != null) {
            select.append(" AND due_at >= ?");
            params.add((ps, i) -> sql.bindInstant(ps, i, query.dueFrom()));
        }
        if (query.dueBefore() != null) {
            select.append(" AND due_at < ?");
            params.add((ps, i) -> sql.bindInstant(ps, i, query.dueBefore()));
        }
        if (query.tag() != null) {
            select.append(" AND ").append(sql.hasTagCondition());
            params.add((ps, i) -> ps.setString(i, query.tag()));
        }
        // undated tasks last; ids are UUIDv7, so id order is creation order
        select.append(" ORDER BY CASE WHEN due_at IS NULL THEN 1 ELSE 0 END, due_at, id LIMIT ?");
        params.add((ps, i) -> ps.setInt(i, query.limit()));

        return database.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(select.toString())) {
                for (int i = 0; i < params.size(); i++) {
                    params.get(i).bind(ps, i + 1);
                }
                List<Task> tasks = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) tasks.add(read(rs));
                }
                return tasks;
            }
        });
    }

    @Override
    public Optional<Task> update(TaskOwner owner, String id, UnaryOperator<Task> change) {
        String update = "UPDATE tasks SET title = ?, description = ?, due_at = ?, priority = ?, tags = "
                + sql.tagsPlaceholder() + ", status = ?, updated_at = ?" + OWNED + " AND id = ?";
        return database.inTransaction(c -> {
            Optional<Task> current = select(c, owner, id, sql.lockForUpdate());
            if (current.isEmpty()) return Optional.empty();
            Task changed = change.apply(current.get());
            if (!changed.id().equals(id) || !changed.owner().equals(owner)) {
                throw new IllegalStateException("an update must not change a task's id or owner");
            }
            try (PreparedStatement ps = c.prepareStatement(update)) {
                ps.setString(1, changed.title());
                ps.setString(2, changed.description());
                sql.bindInstant(ps, 3, changed.dueAt());
                ps.setString(4, changed.priority().wireName());
                ps.setString(5, DialectSql.tagsToJson(changed.tags()));
                ps.setString(6, changed.status().wireName());
                sql.bindInstant(ps, 7, changed.updatedAt());
                ps.setString(8, owner.tenantId());
                ps.setString(9, owner.userId());
                ps.setString(10, id);
                ps.executeUpdate();
            }
            return Optional.of(changed);
        });
    }

    @Override
    public boolean delete(TaskOwner owner, String id) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM tasks" + OWNED + " AND id = ?")) {
                ps.setString(1, owner.tenantId());
                ps.setString(2, owner.userId());
                ps.setString(3, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private Optional<Task> select(Connection c, TaskOwner owner, String id, String suffix) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM tasks" + OWNED + " AND id = ?" + suffix)) {
            ps.setString(1, owner.tenantId());
            ps.setString(2, owner.userId());
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    private Task read(ResultSet rs) throws SQLException {
        return new Task(
                rs.getString("id"),
                new TaskOwner(rs.getString("tenant_id"), rs.getString("user_id")),
                rs.getString("title"),
                rs.getString("description"),
                sql.readInstant(rs, "due_at"),
                TaskPriority.parse(rs.getString("priority")),
                DialectSql.tagsFromJson(rs.getString("tags")),
                TaskStatus.fromWireName(rs.getString("status")),
                sql.readInstant(rs, "created_at"),
                sql.readInstant(rs, "updated_at"));
    }

    /** Binds one parameter of a statement built up piece by piece. */
    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps, int index) throws SQLException;
    }
}
