package dev.baton.core.conversation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/** One model call's token usage and cost (a row of ai_usage). */
public record UsageRecord(
        String id,
        String tenantId,
        String userId,
        String sessionId,
        String messageId,
        String provider,
        String model,
        long inputTokens,
        long outputTokens,
        BigDecimal costUsd,
        long latencyMs,
        Instant createdAt) {

    public UsageRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(model, "model");
        costUsd = costUsd == null ? BigDecimal.ZERO : costUsd;
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
