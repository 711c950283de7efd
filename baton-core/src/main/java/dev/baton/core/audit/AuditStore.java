package dev.baton.core.audit;

import java.util.List;
import java.util.Optional;

/**
 * Reading the audit trail and writing extractions that belong to no message write. Audit records themselves are
 * written with their message, atomically, through {@link dev.baton.core.conversation.ConversationStore}.
 *
 * <p>Reads here are administrative: they are scoped to a tenant, not to a user.
 */
public interface AuditStore {

    /**
     * The audit records of a session of the tenant, oldest first.
     *
     * @return empty when the tenant has no such session and no audit records for it (a deleted session's records
     *     are still returned)
     */
    Optional<List<AuditRecord>> sessionAudit(String tenantId, String sessionId);

    /** The extractions of a session of the tenant, oldest first; empty when there are none or no such session. */
    List<ExtractionRecord> sessionExtractions(String tenantId, String sessionId);

    /** Stores extractions from asynchronous hooks (on_message, session:start/end), in one transaction. */
    void saveExtractions(List<ExtractionRecord> extractions);

    /** A store that keeps nothing, for a runtime without persistence of hook results. */
    AuditStore NONE = new AuditStore() {
        @Override
        public Optional<List<AuditRecord>> sessionAudit(String tenantId, String sessionId) {
            return Optional.empty();
        }

        @Override
        public List<ExtractionRecord> sessionExtractions(String tenantId, String sessionId) {
            return List.of();
        }

        @Override
        public void saveExtractions(List<ExtractionRecord> extractions) {}
    };
}
