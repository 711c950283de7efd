package dev.baton.mcp.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Names one user (of one tenant) where a process per user needs a name of its own, such as its data file:
 * {@code ${BATON_USER_KEY}} in a {@code state: perUser} command server's {@code command}, {@code args} or
 * {@code env}. A hash rather than the user id itself, so a token subject with {@code /} or {@code ..} in it can never
 * reach another path, and two users never share a key.
 *
 * @param value 32 lowercase hex digits
 */
public record UserKey(String value) {
    public static final String PLACEHOLDER_NAME = "BATON_USER_KEY";
    public static final String PLACEHOLDER = "${" + PLACEHOLDER_NAME + "}";
    /** The key of the process that only lists a server's tools and is never called for anyone. */
    public static final UserKey LISTING = new UserKey("0".repeat(32));

    public UserKey {
        Objects.requireNonNull(value, "value");
        if (!value.matches("[0-9a-f]{32}")) throw new IllegalArgumentException("a user key is 32 hex digits");
    }

    /** The key of a user of a tenant. */
    public static UserKey of(String tenantId, String userId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((tenantId + "\u0000" + userId).getBytes(StandardCharsets.UTF_8));
            return new UserKey(HexFormat.of().formatHex(digest, 0, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** {@code text} with every {@code ${BATON_USER_KEY}} replaced by this key. */
    public String fill(String text) {
        return text.replace(PLACEHOLDER, value);
    }
}
