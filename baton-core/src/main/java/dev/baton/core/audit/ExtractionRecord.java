package dev.baton.core.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * Structured data a module extracted from a conversation ({@code extractions}): a {@code pii_detected} finding, a
 * topic, a sentiment… Deleted with its session (unlike audit records).
 *
 * @param messageId the message it concerns; null for session hooks
 * @param module the id of the module that extracted it
 */
public record ExtractionRecord(
        String id, String sessionId, String messageId, String module, String type, JsonNode data, Instant createdAt) {

    public ExtractionRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
