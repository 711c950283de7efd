package dev.baton.store.jdbc.experiment;

import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.flag.FlagStore;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Feature flag values set at runtime, in {@code feature_flags}; each change with its audit record, atomically. */
public final class JdbcFlagStore implements FlagStore {
    private final Database db;
    private final ColumnCodec columns;

    public JdbcFlagStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.columns = db.columns();
    }

    @Override
    public Map<String, Integer> overrides() {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT name, percentage FROM feature_flags ORDER BY name");
                    ResultSet rs = ps.executeQuery()) {
                Map<String, Integer> out = new LinkedHashMap<>();
                while (rs.next()) out.put(rs.getString("name"), rs.getInt("percentage"));
                return Map.copyOf(out);
            }
        });
    }

    @Override
    public void set(String name, int percentage, OperatorAuditRecord audit) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO feature_flags (name, percentage, updated_by, updated_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (name) DO UPDATE SET percentage = excluded.percentage,"
                            + " updated_by = excluded.updated_by, updated_at = excluded.updated_at")) {
                ps.setString(1, name);
                ps.setInt(2, percentage);
                ps.setString(3, audit.actor());
                columns.setInstant(ps, 4, audit.at());
                ps.executeUpdate();
            }
            OperatorAuditRows.insert(c, columns, audit);
            return null;
        });
    }

    @Override
    public boolean clear(String name, OperatorAuditRecord audit) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM feature_flags WHERE name = ?")) {
                ps.setString(1, name);
                if (ps.executeUpdate() == 0) return false;
            }
            OperatorAuditRows.insert(c, columns, audit);
            return true;
        });
    }
}
