package dev.baton.core.audit;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One row of the audit trail ({@code message_audit}): what a message said before a module changed or blocked it.
 * Written once, in the same transaction as the message; never updated or deleted by the runtime — not even with
 * its conversation, so the trail outlives a user deleting the session.
 *
 * @param messageId the stored message it concerns (the [blocked] or redacted user message, or the answer)
 * @param originalContent the content before the module changed it
 * @param module the id of the module that changed or blocked it
 * @param patternsMatched names of what matched (never the matched text)
 */
public record AuditRecord(
        String id,
        String tenantId,
        String sessionId,
        String messageId,
        String originalContent,
        String module,
        String reason,
        List<String> patternsMatched,
        Instant createdAt) {

    public AuditRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(originalContent, "originalContent");
        Objects.requireNonNull(module, "module");
        patternsMatched = List.copyOf(patternsMatched == null ? List.of() : patternsMatched);
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
