package dev.baton.store.jdbc.mcp;

import dev.baton.core.tool.account.AccountToken;
import dev.baton.core.tool.account.AccountTokenStore;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link AccountTokenStore} of baton-mcp's servers with {@code auth: oauth}, in the {@code mcp_account_tokens}
 * table: sealed tokens only, one row per user and server, every statement keyed by the user.
 */
public final class JdbcAccountTokens implements AccountTokenStore {
    private static final String COLUMNS = "tenant_id, user_id, server, sealed, connected_at, updated_at";

    private final Database db;
    private final ColumnCodec columns;

    public JdbcAccountTokens(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.columns = db.columns();
    }

    @Override
    public void save(AccountToken token) {
        db.inTransaction(c -> {
            try (PreparedStatement upsert = c.prepareStatement("INSERT INTO mcp_account_tokens (" + COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, user_id, server) DO UPDATE SET"
                    + " sealed = excluded.sealed, updated_at = excluded.updated_at")) {
                upsert.setString(1, token.tenantId());
                upsert.setString(2, token.userId());
                upsert.setString(3, token.server());
                upsert.setString(4, token.sealed());
                columns.setInstant(upsert, 5, token.connectedAt());
                columns.setInstant(upsert, 6, token.updatedAt());
                upsert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<AccountToken> find(String tenantId, String userId, String server) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM mcp_account_tokens WHERE tenant_id = ? AND user_id = ? AND server = ?")) {
                ps.setString(1, tenantId);
                ps.setString(2, userId);
                ps.setString(3, server);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(token(rs)) : Optional.<AccountToken>empty();
                }
            }
        });
    }

    @Override
    public List<AccountToken> list(String tenantId, String userId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM mcp_account_tokens WHERE tenant_id = ? AND user_id = ? ORDER BY server")) {
                ps.setString(1, tenantId);
                ps.setString(2, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<AccountToken> out = new ArrayList<>();
                    while (rs.next()) out.add(token(rs));
                    return out;
                }
            }
        });
    }

    @Override
    public boolean delete(String tenantId, String userId, String server) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM mcp_account_tokens WHERE tenant_id = ? AND user_id = ? AND server = ?")) {
                ps.setString(1, tenantId);
                ps.setString(2, userId);
                ps.setString(3, server);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private AccountToken token(ResultSet rs) throws SQLException {
        return new AccountToken(
                rs.getString("tenant_id"),
                rs.getString("user_id"),
                rs.getString("server"),
                rs.getString("sealed"),
                columns.getInstant(rs, "connected_at"),
                columns.getInstant(rs, "updated_at"));
    }
}
