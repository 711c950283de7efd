package dev.baton.core.id;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;

/**
 * The idempotency keys Baton sends with its calls to other servers (a remote tool, a webhook module). Each depends
 * only on ids kept in the turn's checkpoint, so an instance that takes a turn over and makes a call again sends the
 * same key as the instance that died while making it: a server that remembers keys acts once. A key is a hash, so
 * the ids (a model's call id is any text) never reach a header as they are, and the server learns nothing from it.
 */
public final class CallKeys {
    private CallKeys() {}

    /** The key of the tool call {@code callId} (as the model gave it) of the turn {@code turnId}. */
    public static String toolCall(String turnId, String callId) {
        return "baton-tc-" + hash(turnId, callId);
    }

    /** The key of the call of {@code module} at {@code hook} for the request {@code requestId} in the session. */
    public static String hookCall(String requestId, String sessionId, String hook, String module) {
        return "baton-hc-" + hash(requestId, sessionId, hook, module);
    }

    private static String hash(String... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                sha.update(Objects.requireNonNull(part, "part").getBytes(StandardCharsets.UTF_8));
                // a separator no id contains, so ("ab", "c") and ("a", "bc") differ
                sha.update((byte) 0);
            }
            return Base64.getUrlEncoder().withoutPadding().encodeToString(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
