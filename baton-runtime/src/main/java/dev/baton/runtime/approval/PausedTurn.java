package dev.baton.runtime.approval;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * A turn stopped until its held tool calls are decided: the loop's state as {@code TurnStateCodec} JSON, which any
 * instance can go on from.
 *
 * @param requestId the request that paused it (for logs)
 * @param state the loop's state as JSON text
 * @param pausedAt when it paused; the turn's deadline is moved by the time it spent paused
 * @param expiresAt when its undecided calls expire
 * @param claimId who goes on with it, once a decision claimed it ({@link Status#RESUMED}); null before
 * @param claimedUntil until when that claim holds: past it, the instance that claimed the turn is taken for dead and a
 *     retried decision may take the turn over; null when not claimed, or once the turn went on to its end
 */
public record PausedTurn(
        String turnId,
        String tenantId,
        String userId,
        String sessionId,
        String requestId,
        String state,
        Status status,
        Instant pausedAt,
        Instant expiresAt,
        String claimId,
        Instant claimedUntil) {

    /** A paused turn waits, then goes on once (resumed) or ends without the model (closed). */
    public enum Status {
        PAUSED,
        RESUMED,
        CLOSED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Status fromWire(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    public PausedTurn {
        Objects.requireNonNull(turnId, "turnId");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(pausedAt, "pausedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** A turn no decision has claimed yet. */
    public PausedTurn(
            String turnId,
            String tenantId,
            String userId,
            String sessionId,
            String requestId,
            String state,
            Status status,
            Instant pausedAt,
            Instant expiresAt) {
        this(turnId, tenantId, userId, sessionId, requestId, state, status, pausedAt, expiresAt, null, null);
    }

    /** Whether an instance claimed it to go on with it, and its claim ran out before the turn ended: it died. */
    public boolean abandonedAt(Instant now) {
        return status == Status.RESUMED && claimedUntil != null && !now.isBefore(claimedUntil);
    }

    /** This turn claimed by {@code newClaimId} until {@code until}. */
    public PausedTurn claimed(Status newStatus, String newClaimId, Instant until) {
        return new PausedTurn(
                turnId,
                tenantId,
                userId,
                sessionId,
                requestId,
                state,
                newStatus,
                pausedAt,
                expiresAt,
                newClaimId,
                until);
    }
}
