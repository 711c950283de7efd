package dev.baton.core.conversation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * One model call's token usage and cost (a row of ai_usage).
 *
 * @param inputTokens every input token, cached ones included
 * @param cachedInputTokens how many of {@code inputTokens} the provider read from its prompt cache (billed cheaper)
 */
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
        long cachedInputTokens,
        BigDecimal costUsd,
        long latencyMs,
        Instant createdAt) {

    public UsageRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(model, "model");
        if (cachedInputTokens < 0) {
            throw new IllegalArgumentException("cachedInputTokens must be >= 0, got " + cachedInputTokens);
        }
        costUsd = costUsd == null ? BigDecimal.ZERO : costUsd;
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** This record linked to the answer {@code messageId} it was spent on. */
    public UsageRecord withMessageId(String messageId) {
        return new UsageRecord(
                id,
                tenantId,
                userId,
                sessionId,
                messageId,
                provider,
                model,
                inputTokens,
                outputTokens,
                cachedInputTokens,
                costUsd,
                latencyMs,
                createdAt);
    }
}
