package dev.baton.core.conversation;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The audit trail and extractions an {@link InMemoryConversationStore} keeps, read as the JDBC audit store reads them:
 * by tenant, oldest first, instants truncated to the microsecond; a deleted session keeps its audit records and loses
 * its extractions.
 */
final class InMemoryAuditStore implements AuditStore {
    private final InMemoryConversationStore store;

    InMemoryAuditStore(InMemoryConversationStore store) {
        this.store = store;
    }

    @Override
    public Optional<List<AuditRecord>> sessionAudit(String tenantId, String sessionId) {
        List<AuditRecord> found = store.auditRows(sessionId).stream()
                .filter(a -> a.tenantId().equals(tenantId))
                .map(InMemoryAuditStore::truncated)
                .sorted(Comparator.comparing(AuditRecord::createdAt).thenComparing(AuditRecord::id))
                .toList();
        if (!found.isEmpty()) return Optional.of(found);
        return store.tenantOf(sessionId).filter(tenantId::equals).map(t -> List.of());
    }

    @Override
    public List<ExtractionRecord> sessionExtractions(String tenantId, String sessionId) {
        if (store.tenantOf(sessionId).filter(tenantId::equals).isEmpty()) return List.of();
        return store.extractionRows(sessionId).stream()
                .map(InMemoryAuditStore::truncated)
                .sorted(Comparator.comparing(ExtractionRecord::createdAt).thenComparing(ExtractionRecord::id))
                .toList();
    }

    @Override
    public void saveExtractions(List<ExtractionRecord> extractions) {
        store.addExtractions(List.copyOf(extractions));
    }

    private static AuditRecord truncated(AuditRecord a) {
        return new AuditRecord(
                a.id(),
                a.tenantId(),
                a.sessionId(),
                a.messageId(),
                a.originalContent(),
                a.module(),
                a.reason(),
                a.patternsMatched(),
                InMemoryRows.truncate(a.createdAt()));
    }

    private static ExtractionRecord truncated(ExtractionRecord x) {
        return new ExtractionRecord(
                x.id(),
                x.sessionId(),
                x.messageId(),
                x.module(),
                x.type(),
                x.data(),
                InMemoryRows.truncate(x.createdAt()));
    }
}
