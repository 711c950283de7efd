package dev.baton.store.jdbc.mcp;

import dev.baton.core.tool.pin.ToolPin;
import dev.baton.core.tool.pin.ToolPins;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@link ToolPins} baton-mcp's clients keep, in the {@code mcp_tool_pins} table, shared by every instance. Each
 * operation is one transaction whose statements decide on the row's current values, so two instances seeing a tool at
 * once agree.
 */
public final class JdbcToolPins implements ToolPins {
    private final Database db;
    private final ColumnCodec columns;

    public JdbcToolPins(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.columns = db.columns();
    }

    @Override
    public ToolPin observe(String server, String tool, String hash, Instant now) {
        return db.inTransaction(c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO mcp_tool_pins (server, tool, pinned_hash,"
                    + " pinned_at) VALUES (?, ?, ?, ?) ON CONFLICT (server, tool) DO NOTHING")) {
                insert.setString(1, server);
                insert.setString(2, tool);
                insert.setString(3, hash);
                columns.setInstant(insert, 4, now);
                insert.executeUpdate();
            }
            // matches the pin: no change; the change already recorded: keep its time; another one: record it
            try (PreparedStatement update = c.prepareStatement("UPDATE mcp_tool_pins SET"
                    + " changed_at = CASE WHEN pinned_hash = ? THEN NULL WHEN changed_hash = ? THEN changed_at ELSE ? END,"
                    + " changed_hash = CASE WHEN pinned_hash = ? THEN NULL ELSE ? END"
                    + " WHERE server = ? AND tool = ?")) {
                update.setString(1, hash);
                update.setString(2, hash);
                columns.setInstant(update, 3, now);
                update.setString(4, hash);
                update.setString(5, hash);
                update.setString(6, server);
                update.setString(7, tool);
                update.executeUpdate();
            }
            return find(c, server, tool);
        });
    }

    @Override
    public boolean accept(String server, String tool, String hash, Instant now) {
        return db.inTransaction(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE mcp_tool_pins SET pinned_hash = changed_hash,"
                    + " pinned_at = ?, changed_hash = NULL, changed_at = NULL"
                    + " WHERE server = ? AND tool = ? AND changed_hash = ?")) {
                columns.setInstant(update, 1, now);
                update.setString(2, server);
                update.setString(3, tool);
                update.setString(4, hash);
                return update.executeUpdate() == 1;
            }
        });
    }

    @Override
    public List<ToolPin> all() {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT server, tool, pinned_hash, pinned_at, changed_hash,"
                            + " changed_at FROM mcp_tool_pins ORDER BY server, tool");
                    ResultSet rs = ps.executeQuery()) {
                List<ToolPin> pins = new ArrayList<>();
                while (rs.next()) pins.add(pin(rs));
                return pins;
            }
        });
    }

    private ToolPin find(Connection c, String server, String tool) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT server, tool, pinned_hash, pinned_at, changed_hash,"
                + " changed_at FROM mcp_tool_pins WHERE server = ? AND tool = ?")) {
            ps.setString(1, server);
            ps.setString(2, tool);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SQLException("the pin of " + server + "/" + tool + " vanished");
                return pin(rs);
            }
        }
    }

    private ToolPin pin(ResultSet rs) throws SQLException {
        return new ToolPin(
                rs.getString("server"),
                rs.getString("tool"),
                rs.getString("pinned_hash"),
                columns.getInstant(rs, "pinned_at"),
                rs.getString("changed_hash"),
                columns.getInstant(rs, "changed_at"));
    }
}
