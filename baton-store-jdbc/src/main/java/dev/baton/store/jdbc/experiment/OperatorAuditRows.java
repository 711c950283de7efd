package dev.baton.store.jdbc.experiment;

import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.store.jdbc.ColumnCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The {@code operator_audit} table: appended to inside the transaction of the change it records. */
final class OperatorAuditRows {
    private OperatorAuditRows() {}

    static void insert(Connection c, ColumnCodec columns, OperatorAuditRecord r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO operator_audit (id, subject, action, actor, detail, created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, r.id());
            ps.setString(2, r.subject());
            ps.setString(3, r.action());
            ps.setString(4, r.actor());
            ps.setString(5, r.detail());
            columns.setInstant(ps, 6, r.at());
            ps.executeUpdate();
        }
    }

    static List<OperatorAuditRecord> newest(Connection c, ColumnCodec columns, String subject, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, subject, action, actor, detail, created_at"
                + " FROM operator_audit WHERE subject = ? ORDER BY created_at DESC, id DESC LIMIT ?")) {
            ps.setString(1, subject);
            ps.setInt(2, limit);
            List<OperatorAuditRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next())
                    out.add(new OperatorAuditRecord(
                            rs.getString("id"),
                            rs.getString("subject"),
                            rs.getString("action"),
                            rs.getString("actor"),
                            rs.getString("detail"),
                            columns.getInstant(rs, "created_at")));
            }
            return out;
        }
    }
}
