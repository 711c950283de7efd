package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.audit.AuditRecord;
import dev.baton.runtime.audit.AuditTrails;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.wire.Views;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Objects;

/**
 * {@code GET /v1/admin/sessions/{id}/audit}: a session's audit trail, for callers with {@code admin:audit}, across
 * the users of the caller's tenant: the modules' records and every tool call held for approval (who decided, when,
 * with which arguments). Who may read it is the runtime's rule ({@link AuditTrails}): 403 without the permission; 404
 * for a session the tenant does not have (a deleted session's trail is still returned).
 */
public final class AuditRoutes {

    public static final String AUDIT = AuditTrails.AUDIT;

    private final AuditTrails trails;

    /** @param trails the runtime's, {@code baton.auditTrails()} */
    public AuditRoutes(AuditTrails trails) {
        this.trails = Objects.requireNonNull(trails, "trails");
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/sessions/{id}/audit", this::sessionAudit);
    }

    private void sessionAudit(Context ctx) {
        ctx.json(body(trails.sessionAudit(Caller.of(ctx), ctx.pathParam("id"))));
    }

    /** The trail's JSON, {@code {auditRecords: [...], approvals: [...]}}: also design 001's audit answer. */
    public static ObjectNode body(AuditTrails.Trail trail) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("auditRecords");
        for (AuditRecord r : trail.records()) {
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
        trail.approvals().forEach(a -> approvalList.add(Views.approval(a)));
        return body;
    }
}
