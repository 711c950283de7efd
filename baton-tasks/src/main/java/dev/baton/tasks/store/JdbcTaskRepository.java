package dev.baton.tasks.store;

import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows;
import dev.baton.store.jdbc.OwnedRows.Param;
import dev.baton.store.jdbc.OwnedRows.Value;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskOwner;
import dev.baton.tasks.domain.TaskPriority;
import dev.baton.tasks.domain.TaskQuery;
import dev.baton.tasks.domain.TaskRepository;
import dev.baton.tasks.domain.TaskStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Tasks in the {@code tasks} table of a {@link Database} (SQLite or PostgreSQL). Every statement is scoped by
 * tenant and user (see {@link OwnedRows}), so one owner can never read or touch another's rows.
 */
public final class JdbcTaskRepository implements TaskRepository {
    private static final String COLUMNS =
            "id, tenant_id, user_id, title, description, due_at, priority, tags, status, created_at, updated_at";
    // undated tasks last; ids are UUIDv7, so id order is creation order
    private static final String SOONEST_DUE_FIRST = "CASE WHEN due_at IS NULL THEN 1 ELSE 0 END, due_at, id";

    private final ColumnCodec codec;
    private final DialectSql sql;
    private final OwnedRows<Task> rows;

    public JdbcTaskRepository(Database database) {
        Objects.requireNonNull(database, "database");
        this.codec = database.columns();
        this.sql = DialectSql.of(database.dialect());
        this.rows = new OwnedRows<>(database, "tasks", COLUMNS, this::read, task -> owner(task.owner()), Task::id);
    }

    @Override
    public void insert(Task task) {
        List<Value> values = new ArrayList<>(changeable(task));
        values.add(rows.instant("created_at", task.createdAt()));
        rows.insert(task, values);
    }

    @Override
    public Optional<Task> find(TaskOwner owner, String id) {
        return rows.find(owner(owner), id);
    }

    @Override
    public List<Task> find(TaskQuery query) {
        StringBuilder conditions = new StringBuilder(" AND status IN (");
        List<Param> params = new ArrayList<>();
        String separator = "";
        for (TaskStatus status : query.statuses()) {
            conditions.append(separator).append('?');
            separator = ", ";
            params.add(Param.text(status.wireName()));
        }
        conditions.append(')');
        if (query.priority() != null) {
            conditions.append(" AND priority = ?");
            params.add(Param.text(query.priority().wireName()));
        }
        if (query.dueFrom() != null) {
            conditions.append(" AND due_at >= ?");
            params.add((ps, i) -> codec.setInstant(ps, i, query.dueFrom()));
        }
        if (query.dueBefore() != null) {
            conditions.append(" AND due_at < ?");
            params.add((ps, i) -> codec.setInstant(ps, i, query.dueBefore()));
        }
        if (query.tag() != null) {
            conditions.append(" AND ").append(sql.hasTagCondition());
            params.add(Param.text(query.tag()));
        }
        return rows.list(owner(query.owner()), conditions.toString(), params, SOONEST_DUE_FIRST, query.limit());
    }

    @Override
    public Optional<Task> update(TaskOwner owner, String id, UnaryOperator<Task> change) {
        return rows.update(owner(owner), id, change, this::changeable);
    }

    @Override
    public boolean delete(TaskOwner owner, String id) {
        return rows.delete(owner(owner), id);
    }

    /** Every column an update writes: all but the key and created_at. */
    private List<Value> changeable(Task task) {
        return List.of(
                Value.text("title", task.title()),
                Value.text("description", task.description()),
                rows.instant("due_at", task.dueAt()),
                Value.text("priority", task.priority().wireName()),
                new Value("tags", sql.tagsPlaceholder(), Param.text(DialectSql.tagsToJson(task.tags()))),
                Value.text("status", task.status().wireName()),
                rows.instant("updated_at", task.updatedAt()));
    }

    private static OwnedRows.Owner owner(TaskOwner owner) {
        return new OwnedRows.Owner(owner.tenantId(), owner.userId());
    }

    private Task read(ResultSet rs) throws SQLException {
        return new Task(
                rs.getString("id"),
                new TaskOwner(rs.getString("tenant_id"), rs.getString("user_id")),
                rs.getString("title"),
                rs.getString("description"),
                codec.getInstant(rs, "due_at"),
                TaskPriority.parse(rs.getString("priority")),
                DialectSql.tagsFromJson(rs.getString("tags")),
                TaskStatus.fromWireName(rs.getString("status")),
                codec.getInstant(rs, "created_at"),
                codec.getInstant(rs, "updated_at"));
    }
}
