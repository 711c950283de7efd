package dev.baton.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The rows of one table that belong to users, for the user-scoped domains (tasks, notes): every row has the key
 * columns {@code id}, {@code tenant_id} and {@code user_id}, and every statement here is scoped by tenant and
 * user, so one owner can never read or touch another's rows. What a row holds stays with the domain: its data
 * columns, how a row is read and how its values are bound.
 *
 * @param <T> the domain record a row stands for
 */
public final class OwnedRows<T> {
    private static final String OWNED = " WHERE tenant_id = ? AND user_id = ?";

    /** Whose rows: always taken from the caller, never from what the caller sent. */
    public record Owner(String tenantId, String userId) {
        public Owner {
            Objects.requireNonNull(tenantId, "tenantId");
            Objects.requireNonNull(userId, "userId");
        }
    }

    /** Reads the row the result set is on. */
    @FunctionalInterface
    public interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Binds one statement parameter. */
    @FunctionalInterface
    public interface Param {
        void bind(PreparedStatement ps, int index) throws SQLException;

        static Param text(String value) {
            return (ps, i) -> ps.setString(i, value);
        }
    }

    /**
     * One data column to write.
     *
     * @param placeholder its SQL in VALUES or SET: {@code ?}, or an expression around it such as
     *     {@code CAST(? AS jsonb)}
     */
    public record Value(String column, String placeholder, Param param) {
        public Value {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(placeholder, "placeholder");
            Objects.requireNonNull(param, "param");
        }

        public static Value of(String column, Param param) {
            return new Value(column, "?", param);
        }

        public static Value text(String column, String value) {
            return of(column, Param.text(value));
        }
    }

    private final Database database;
    private final ColumnCodec codec;
    private final String table;
    private final String columns;
    private final RowReader<T> reader;
    private final Function<T, Owner> ownerOf;
    private final Function<T, String> idOf;
    private final String lockForUpdate;

    /**
     * @param columns every column a SELECT reads, comma-separated, the key columns included
     * @param ownerOf whose a record is, and {@code idOf} its id: what an update may not change
     */
    public OwnedRows(
            Database database,
            String table,
            String columns,
            RowReader<T> reader,
            Function<T, Owner> ownerOf,
            Function<T, String> idOf) {
        this.database = Objects.requireNonNull(database, "database");
        this.codec = database.columns();
        this.table = Objects.requireNonNull(table, "table");
        this.columns = Objects.requireNonNull(columns, "columns");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.ownerOf = Objects.requireNonNull(ownerOf, "ownerOf");
        this.idOf = Objects.requireNonNull(idOf, "idOf");
        // SQLite write transactions begin IMMEDIATE and already hold the write lock
        this.lockForUpdate = database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE" : "";
    }

    /** An instant column, stored the way {@link ColumnCodec} does for this database. */
    public Value instant(String column, Instant value) {
        return Value.of(column, (ps, i) -> codec.setInstant(ps, i, value));
    }

    /** Stores a new row: its key from the record, then {@code values}. */
    public void insert(T row, List<Value> values) {
        Owner owner = ownerOf.apply(row);
        StringBuilder names = new StringBuilder("id, tenant_id, user_id");
        StringBuilder placeholders = new StringBuilder("?, ?, ?");
        List<Param> params = new ArrayList<>(
                List.of(Param.text(idOf.apply(row)), Param.text(owner.tenantId()), Param.text(owner.userId())));
        for (Value value : values) {
            names.append(", ").append(value.column());
            placeholders.append(", ").append(value.placeholder());
            params.add(value.param());
        }
        String insert = "INSERT INTO " + table + " (" + names + ") VALUES (" + placeholders + ")";
        database.inSharedStatement(c -> {
            try (PreparedStatement ps = prepare(c, insert, params)) {
                ps.executeUpdate();
            }
            return null;
        });
    }

    public Optional<T> find(Owner owner, String id) {
        return database.withConnection(c -> select(c, owner, id, ""));
    }

    /**
     * The owner's rows that meet {@code conditions}, in {@code orderBy} order, at most {@code limit}.
     *
     * @param conditions SQL that follows the owner condition, each part starting with {@code AND}; "" for none
     * @param params what the {@code ?} in {@code conditions} stand for, in order
     */
    public List<T> list(Owner owner, String conditions, List<Param> params, String orderBy, int limit) {
        String select =
                "SELECT " + columns + " FROM " + table + OWNED + conditions + " ORDER BY " + orderBy + " LIMIT ?";
        List<Param> all = new ArrayList<>();
        all.add(Param.text(owner.tenantId()));
        all.add(Param.text(owner.userId()));
        all.addAll(params);
        all.add((ps, i) -> ps.setInt(i, limit));
        return database.withConnection(c -> {
            try (PreparedStatement ps = prepare(c, select, all)) {
                List<T> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) rows.add(reader.read(rs));
                }
                return rows;
            }
        });
    }

    /**
     * Reads the owner's row, applies {@code change} and writes {@code values} of the result, atomically; the row
     * is locked from the read to the write, so concurrent changes apply one after the other.
     *
     * @return the changed record, or empty when the owner has no such row
     * @throws IllegalStateException when {@code change} changes the record's id or owner
     */
    public Optional<T> update(Owner owner, String id, UnaryOperator<T> change, Function<T, List<Value>> values) {
        return database.inTransaction(c -> {
            Optional<T> current = select(c, owner, id, lockForUpdate);
            if (current.isEmpty()) return Optional.empty();
            T changed = change.apply(current.get());
            if (!idOf.apply(changed).equals(id) || !ownerOf.apply(changed).equals(owner)) {
                throw new IllegalStateException("an update must not change the id or owner of a row of " + table);
            }
            StringBuilder assignments = new StringBuilder();
            List<Param> params = new ArrayList<>();
            for (Value value : values.apply(changed)) {
                if (!assignments.isEmpty()) assignments.append(", ");
                assignments.append(value.column()).append(" = ").append(value.placeholder());
                params.add(value.param());
            }
            params.addAll(ownedId(owner, id));
            String update = "UPDATE " + table + " SET " + assignments + OWNED + " AND id = ?";
            try (PreparedStatement ps = prepare(c, update, params)) {
                ps.executeUpdate();
            }
            return Optional.of(changed);
        });
    }

    /** @return whether the owner had such a row */
    public boolean delete(Owner owner, String id) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps =
                    prepare(c, "DELETE FROM " + table + OWNED + " AND id = ?", ownedId(owner, id))) {
                return ps.executeUpdate() == 1;
            }
        });
    }

    private Optional<T> select(Connection c, Owner owner, String id, String suffix) throws SQLException {
        String select = "SELECT " + columns + " FROM " + table + OWNED + " AND id = ?" + suffix;
        try (PreparedStatement ps = prepare(c, select, ownedId(owner, id))) {
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(reader.read(rs)) : Optional.empty();
            }
        }
    }

    private static List<Param> ownedId(Owner owner, String id) {
        return List.of(Param.text(owner.tenantId()), Param.text(owner.userId()), Param.text(id));
    }

    private static PreparedStatement prepare(Connection c, String sql, List<Param> params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            for (int i = 0; i < params.size(); i++) {
                params.get(i).bind(ps, i + 1);
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
