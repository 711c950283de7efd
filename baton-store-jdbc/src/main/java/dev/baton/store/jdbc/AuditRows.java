package dev.baton.store.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL for {@code message_audit} (append-only: this class only inserts and reads it) and {@code extractions}.
 * Patterns and extraction data are JSON text.
 */
final class AuditRows {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final String AUDIT_COLUMNS = "id, tenant_id, session_id, message_id, original_content,"
            + " redaction_module, redaction_reason, patterns_matched, created_at";
    private static final String EXTRACTION_COLUMNS = "id, session_id, message_id, module, type, data, created_at";
    private static final String INSERT_AUDIT =
            "INSERT INTO message_audit (" + AUDIT_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_EXTRACTION =
            "INSERT INTO extractions (" + EXTRACTION_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)";

    private final ColumnCodec codec;

    AuditRows(ColumnCodec codec) {
        this.codec = codec;
    }

    void insertAudit(Connection c, List<AuditRecord> records) throws SQLException {
        if (records.isEmpty()) return;
        try (PreparedStatement ps = c.prepareStatement(INSERT_AUDIT)) {
            for (AuditRecord a : records) {
                bind(ps, 1, a);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** {@link #insertAudit} as parts of a PostgreSQL chain, one per record. */
    void insertAuditIn(StatementChain chain, List<AuditRecord> records) {
        for (AuditRecord a : records) chain.add(INSERT_AUDIT, (ps, first) -> bind(ps, first, a));
    }

    private int bind(PreparedStatement ps, int first, AuditRecord a) throws SQLException {
        ps.setString(first, a.id());
        ps.setString(first + 1, a.tenantId());
        ps.setString(first + 2, a.sessionId());
        ps.setString(first + 3, a.messageId());
        ps.setString(first + 4, a.originalContent());
        ps.setString(first + 5, a.module());
        ps.setString(first + 6, a.reason());
        ps.setString(first + 7, json(a.patternsMatched()));
        codec.setInstant(ps, first + 8, a.createdAt());
        return first + 9;
    }

    void insertExtractions(Connection c, List<ExtractionRecord> records) throws SQLException {
        if (records.isEmpty()) return;
        try (PreparedStatement ps = c.prepareStatement(INSERT_EXTRACTION)) {
            for (ExtractionRecord x : records) {
                bind(ps, 1, x);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** {@link #insertExtractions} as parts of a PostgreSQL chain, one per record. */
    void insertExtractionsIn(StatementChain chain, List<ExtractionRecord> records) {
        for (ExtractionRecord x : records) chain.add(INSERT_EXTRACTION, (ps, first) -> bind(ps, first, x));
    }

    private int bind(PreparedStatement ps, int first, ExtractionRecord x) throws SQLException {
        ps.setString(first, x.id());
        ps.setString(first + 1, x.sessionId());
        ps.setString(first + 2, x.messageId());
        ps.setString(first + 3, x.module());
        ps.setString(first + 4, x.type());
        ps.setString(first + 5, json(x.data()));
        codec.setInstant(ps, first + 6, x.createdAt());
        return first + 7;
    }

    /** The tenant's audit rows of a session, oldest first (ids are time-ordered UUIDv7s, so they break ties). */
    List<AuditRecord> auditOfSession(Connection c, String tenantId, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + AUDIT_COLUMNS
                + " FROM message_audit WHERE tenant_id = ? AND session_id = ? ORDER BY created_at, id")) {
            ps.setString(1, tenantId);
            ps.setString(2, sessionId);
            List<AuditRecord> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AuditRecord(
                            rs.getString("id"),
                            rs.getString("tenant_id"),
                            rs.getString("session_id"),
                            rs.getString("message_id"),
                            rs.getString("original_content"),
                            rs.getString("redaction_module"),
                            rs.getString("redaction_reason"),
                            strings(rs.getString("patterns_matched")),
                            codec.getInstant(rs, "created_at")));
                }
            }
            return rows;
        }
    }

    /** The extractions of a session of the tenant, oldest first. */
    List<ExtractionRecord> extractionsOfSession(Connection c, String tenantId, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT x.id, x.session_id, x.message_id, x.module, x.type,"
                + " x.data, x.created_at FROM extractions x JOIN sessions s ON s.id = x.session_id"
                + " WHERE s.tenant_id = ? AND x.session_id = ? ORDER BY x.created_at, x.id")) {
            ps.setString(1, tenantId);
            ps.setString(2, sessionId);
            List<ExtractionRecord> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new ExtractionRecord(
                            rs.getString("id"),
                            rs.getString("session_id"),
                            rs.getString("message_id"),
                            rs.getString("module"),
                            rs.getString("type"),
                            tree(rs.getString("data")),
                            codec.getInstant(rs, "created_at")));
                }
            }
            return rows;
        }
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serialisable as JSON", e);
        }
    }

    private static List<String> strings(String json) {
        if (json == null || json.isBlank()) return List.of();
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            // written by this class; an unreadable value is shown as-is rather than hiding the row
            return List.of(json);
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return JSON.getNodeFactory().textNode(json);
        }
    }
}
