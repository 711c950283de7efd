package dev.baton.runtime.experiment;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A user's place in an experiment or a percentage flag: a number in [0, 1) from the first 8 bytes of SHA-256 over
 * (tenant, user, name). The same on every instance, every JVM and every restart — unlike {@code String.hashCode},
 * which the JDK may change — so a user stays in one arm.
 */
public final class StickyHash {
    private StickyHash() {}

    /** The point in [0, 1) where (tenant, user, name) falls. */
    public static double unit(String tenantId, String userId, String name) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        // separators no id can hold: "a|bc" and "ab|c" differ
        byte[] digest = sha.digest((tenantId + '\u0000' + userId + '\u0000' + name).getBytes(StandardCharsets.UTF_8));
        long top53 = ByteBuffer.wrap(digest, 0, 8).getLong() >>> 11;
        return top53 / (double) (1L << 53);
    }
}
