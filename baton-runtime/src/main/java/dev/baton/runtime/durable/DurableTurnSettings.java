package dev.baton.runtime.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigSection;
import java.time.Duration;
import java.util.Locale;

/**
 * baton.yaml's {@code durableTurns:} section: running turns leased to their instance, so a turn whose instance dies
 * is taken over by another (or by the same one restarted) and goes on from its last step.
 *
 * <pre>
 * durableTurns:
 *   enabled: true        # lease running turns (needs a database: SQLite or PostgreSQL)
 *   lease: 15s           # a turn whose instance has not renewed its lease for this long is taken over
 *   heartbeat: 3s        # how often an instance renews its turns' leases and looks for orphaned turns
 *   instanceId: api-1    # this process' name, the same across restarts (default: the host name); a restarted
 *                        # instance takes its previous boot's turns over at once instead of after the lease
 *   sweepBatch: 20       # orphaned turns taken over per heartbeat
 *   unknownOutcome: report  # a tool call that was running when the instance died, and may not run again unasked:
 *                           # report (the model is told its outcome is unknown) or ask (the turn waits for the
 *                           # user to approve running it again, or to skip it)
 * </pre>
 *
 * @param instanceId null for the host name
 * @param unknownOutcome what becomes of a call whose outcome is unknown and that may not run again unasked
 */
public record DurableTurnSettings(
        boolean enabled,
        Duration lease,
        Duration heartbeat,
        String instanceId,
        int sweepBatch,
        UnknownOutcome unknownOutcome) {
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "durableTurns";

    public static final DurableTurnSettings DEFAULTS = new DurableTurnSettings(
            false, Duration.ofSeconds(15), Duration.ofSeconds(3), null, 20, UnknownOutcome.REPORT);

    /**
     * What becomes of a tool call that was running when its turn's instance died (it may or may not have taken
     * effect), when it may not simply run again: its tool is not declared idempotent, or the approval policy holds it.
     */
    public enum UnknownOutcome {
        /** Not run again: the model reads {@code tool_outcome_unknown} and tells the user. */
        REPORT,
        /**
         * The turn pauses for the user, through the approval flow: approving runs the call again (with the same
         * idempotency key), denying skips it (the model reads that its outcome is unknown).
         */
        ASK;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static UnknownOutcome fromWire(String value) {
            for (UnknownOutcome o : values()) {
                if (o.wireName().equals(value)) return o;
            }
            throw new IllegalArgumentException(
                    "durableTurns.unknownOutcome must be report or ask, not '" + value + "'");
        }
    }

    public DurableTurnSettings {
        if (lease == null || lease.isNegative() || lease.isZero())
            throw new IllegalArgumentException("durableTurns.lease must be positive");
        if (heartbeat == null || heartbeat.isNegative() || heartbeat.isZero())
            throw new IllegalArgumentException("durableTurns.heartbeat must be positive");
        // two missed heartbeats in a row must not lose a lease
        if (heartbeat.multipliedBy(3).compareTo(lease) > 0)
            throw new IllegalArgumentException("durableTurns.heartbeat must be at most a third of durableTurns.lease");
        if (instanceId != null && instanceId.isBlank()) instanceId = null;
        if (sweepBatch < 1) throw new IllegalArgumentException("durableTurns.sweepBatch must be >= 1");
        if (unknownOutcome == null) unknownOutcome = UnknownOutcome.REPORT;
    }

    /** These settings switched on or off. */
    public DurableTurnSettings withEnabled(boolean on) {
        return new DurableTurnSettings(on, lease, heartbeat, instanceId, sweepBatch, unknownOutcome);
    }

    /** These settings with this lease and heartbeat. */
    public DurableTurnSettings withLease(Duration newLease, Duration newHeartbeat) {
        return new DurableTurnSettings(enabled, newLease, newHeartbeat, instanceId, sweepBatch, unknownOutcome);
    }

    /** These settings naming this process {@code id}. */
    public DurableTurnSettings withInstanceId(String id) {
        return new DurableTurnSettings(enabled, lease, heartbeat, id, sweepBatch, unknownOutcome);
    }

    /** These settings doing {@code outcome} with a call whose outcome is unknown. */
    public DurableTurnSettings withUnknownOutcome(UnknownOutcome outcome) {
        return new DurableTurnSettings(enabled, lease, heartbeat, instanceId, sweepBatch, outcome);
    }

    /** Reads the section (missing fields keep their defaults). */
    public static DurableTurnSettings from(JsonNode section) {
        ConfigSection.of(
                section, SECTION, "enabled", "lease", "heartbeat", "instanceId", "sweepBatch", "unknownOutcome");
        JsonNode id = section.path("instanceId");
        JsonNode outcome = section.path("unknownOutcome");
        return new DurableTurnSettings(
                section.path("enabled").asBoolean(DEFAULTS.enabled()),
                ConfigNodes.duration(section.path("lease"), DEFAULTS.lease()),
                ConfigNodes.duration(section.path("heartbeat"), DEFAULTS.heartbeat()),
                id.isMissingNode() || id.isNull() ? null : id.asText(),
                section.path("sweepBatch").asInt(DEFAULTS.sweepBatch()),
                outcome.isMissingNode() || outcome.isNull()
                        ? DEFAULTS.unknownOutcome()
                        : UnknownOutcome.fromWire(outcome.asText()));
    }
}
