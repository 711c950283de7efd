package dev.baton.runtime.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigSection;
import java.time.Duration;

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
 * </pre>
 *
 * @param instanceId null for the host name
 */
public record DurableTurnSettings(
        boolean enabled, Duration lease, Duration heartbeat, String instanceId, int sweepBatch) {
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "durableTurns";

    public static final DurableTurnSettings DEFAULTS =
            new DurableTurnSettings(false, Duration.ofSeconds(15), Duration.ofSeconds(3), null, 20);

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
    }

    /** These settings switched on or off. */
    public DurableTurnSettings withEnabled(boolean on) {
        return new DurableTurnSettings(on, lease, heartbeat, instanceId, sweepBatch);
    }

    /** These settings with this lease and heartbeat. */
    public DurableTurnSettings withLease(Duration newLease, Duration newHeartbeat) {
        return new DurableTurnSettings(enabled, newLease, newHeartbeat, instanceId, sweepBatch);
    }

    /** These settings naming this process {@code id}. */
    public DurableTurnSettings withInstanceId(String id) {
        return new DurableTurnSettings(enabled, lease, heartbeat, id, sweepBatch);
    }

    /** Reads the section (missing fields keep their defaults). */
    public static DurableTurnSettings from(JsonNode section) {
        ConfigSection.of(section, SECTION, "enabled", "lease", "heartbeat", "instanceId", "sweepBatch");
        JsonNode id = section.path("instanceId");
        return new DurableTurnSettings(
                section.path("enabled").asBoolean(DEFAULTS.enabled()),
                ConfigNodes.duration(section.path("lease"), DEFAULTS.lease()),
                ConfigNodes.duration(section.path("heartbeat"), DEFAULTS.heartbeat()),
                id.isMissingNode() || id.isNull() ? null : id.asText(),
                section.path("sweepBatch").asInt(DEFAULTS.sweepBatch()));
    }
}
