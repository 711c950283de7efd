package dev.baton.runtime.durable;

import dev.baton.core.id.Ids;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Who runs a leased turn: the process' name, the same across its restarts, and this boot of it. A boot that finds
 * turns leased to its name under another boot knows that boot died with them.
 */
public record InstanceIdentity(String instanceId, String bootId) {
    public InstanceIdentity {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(bootId, "bootId");
    }

    /** The name this boot's shared session locks are taken in ({@link dev.baton.runtime.turn.TurnLocks#breakHeldBy}). */
    public String lockHolder() {
        return instanceId + "/" + bootId;
    }

    /** This boot of the instance named {@code configured}, or of the host's name when null. */
    public static InstanceIdentity boot(String configured) {
        return new InstanceIdentity(configured != null ? configured : hostName(), Ids.newId());
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) return env;
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
