package dev.baton.runtime.audit;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.session.Sessions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A session's audit trail, for administrators of its tenant ({@value #AUDIT}): the modules' records and every tool call
 * held for approval (who decided, when, with which arguments), across the tenant's users. Kept after the session is
 * deleted, so a deleted session's trail is still given.
 */
public final class AuditTrails {
    /** Read the audit trail of any session of the caller's tenant. */
    public static final String AUDIT = "admin:audit";

    /** A session's trail, oldest first in each list. */
    public record Trail(List<AuditRecord> records, List<ToolApproval> approvals) {
        public Trail {
            records = List.copyOf(records);
            approvals = List.copyOf(approvals);
        }
    }

    private final AuditStore audit;
    /** Null: no approval records in the trail. */
    private final Approvals approvals;

    /** @param approvals the held calls' records; null when tool calls never wait for approval */
    public AuditTrails(AuditStore audit, Approvals approvals) {
        this.audit = Objects.requireNonNull(audit, "audit");
        this.approvals = approvals;
    }

    /**
     * The trail of session {@code sessionId} of the caller's tenant.
     *
     * @throws RefusalException {@link Refusal.Forbidden} without {@value #AUDIT}; {@link Refusal.NotFound} when the
     *     tenant has no such session and nothing of it was kept
     */
    public Trail sessionAudit(Principal caller, String sessionId) {
        Sessions.require(caller, AUDIT);
        List<ToolApproval> held = approvals == null ? List.of() : approvals.sessionAudit(caller.tenantId(), sessionId);
        List<AuditRecord> records = audit.sessionAudit(caller.tenantId(), sessionId)
                .or(() -> held.isEmpty() ? Optional.empty() : Optional.of(List.of()))
                .orElseThrow(() -> RefusalException.notFound("session"));
        return new Trail(records, held);
    }
}
