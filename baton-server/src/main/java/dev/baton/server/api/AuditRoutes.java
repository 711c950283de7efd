package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * {@code GET /v1/admin/sessions/{id}/audit}: a session's audit trail, for callers with {@code admin:audit}, across
 * the users of the caller's tenant. 403 without the permission; 404 for a session the tenant does not have (a
 * deleted session's trail is still returned).
 */
public final class AuditRoutes {

    public static final String AUDIT = "admin:audit";

    private final AuditStore audit;

    public AuditRoutes(AuditStore audit) {
        this.audit = audit;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/sessions/{id}/audit", this::sessionAudit);
    }

    private void sessionAudit(Context ctx) {
        Principal p = Caller.with(ctx, AUDIT);
        List<AuditRecord> records = audit.sessionAudit(p.tenantId(), ctx.pathParam("id"))
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
        ctx.json(body);
    }
}
