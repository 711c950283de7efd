package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.approval.Approvals;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * {@code GET /v1/admin/sessions/{id}/audit}: a session's audit trail, for callers with {@code admin:audit}, across
 * the users of the caller's tenant: the modules' records and every tool call held for approval (who decided, when,
 * with which arguments). 403 without the permission; 404 for a session the tenant does not have (a deleted session's
 * trail is still returned).
 */
public final class AuditRoutes {

    public static final String AUDIT = "admin:audit";

    private final AuditStore audit;
    /** Null: no approval records in the trail. */
    private final Approvals approvals;

    public AuditRoutes(AuditStore audit) {
        this(audit, null);
    }

    public AuditRoutes(AuditStore audit, Approvals approvals) {
        this.audit = audit;
        this.approvals = approvals;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/sessions/{id}/audit", this::sessionAudit);
    }

    private void sessionAudit(Context ctx) {
        Principal p = Caller.with(ctx, AUDIT);
        String sessionId = ctx.pathParam("id");
        var held = approvals == null
                ? List.<dev.baton.runtime.approval.ToolApproval>of()
                : approvals.sessionAudit(p.tenantId(), sessionId);
        List<AuditRecord> records = audit.sessionAudit(p.tenantId(), sessionId)
                .or(() -> held.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(List.of()))
                .orElseThrow(() -> RefusalException.notFound("session"));
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("auditRecords");
        for (AuditRecord r : records) {
            ObjectNode n = list.addObject();
            n.put("id", r.id());
            n.put("sessionId", r.sessionId());
            n.put("messageId", r.messageId());
            n.put("originalContent", r.originalContent());
            n.put("module", r.module());
            n.put("reason", r.reason());
            ArrayNode patterns = n.putArray("patternsMatched");
            r.patternsMatched().forEach(patterns::add);
            n.put("createdAt", r.createdAt().toString());
        }
        ArrayNode approvalList = body.putArray("approvals");
        held.forEach(a -> approvalList.add(Views.approval(a)));
        ctx.json(body);
    }
}
