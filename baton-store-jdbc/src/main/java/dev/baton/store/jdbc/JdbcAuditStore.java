package dev.baton.store.jdbc;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link AuditStore} on SQLite or PostgreSQL. Audit rows are written with their messages by
 * {@link JdbcConversationStore}; this store reads them for administrators (scoped to a tenant, across users) and
 * writes the extractions of asynchronous hooks. Nothing here updates or deletes an audit row.
 */
public final class JdbcAuditStore implements AuditStore {
    private final Database db;
    private final AuditRows rows;

    public JdbcAuditStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.rows = new AuditRows(db.columns());
    }

    @Override
    public Optional<List<AuditRecord>> sessionAudit(String tenantId, String sessionId) {
        return db.withConnection(c -> {
            List<AuditRecord> found = rows.auditOfSession(c, tenantId, sessionId);
            if (!found.isEmpty()) return Optional.of(found);
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ? AND tenant_id = ?")) {
                ps.setString(1, sessionId);
                ps.setString(2, tenantId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(List.<AuditRecord>of()) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<ExtractionRecord> sessionExtractions(String tenantId, String sessionId) {
        return db.withConnection(c -> rows.extractionsOfSession(c, tenantId, sessionId));
    }

    @Override
    public void saveExtractions(List<ExtractionRecord> extractions) {
        if (extractions.isEmpty()) return;
        db.inTransaction(c -> {
            rows.insertExtractions(c, List.copyOf(extractions));
            return null;
        });
    }
}
