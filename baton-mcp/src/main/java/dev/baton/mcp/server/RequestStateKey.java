package dev.baton.mcp.server;

import dev.baton.mcp.client.oauth.TokenKeys;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key that seals {@code /mcp}'s {@code requestState} (2026-07-28 approval questions). A client may send its user's
 * answer to any instance behind the load balancer, or after a restart, so every instance must open what another
 * sealed: the key is derived from {@code BATON_TOKEN_KEY}, the secret every instance of a deployment already shares
 * (HMAC-SHA256 of a label of its own, so a sealed state never reveals or reuses the token key itself). Without it,
 * a key random per process: an answer must then reach the instance that asked.
 */
public final class RequestStateKey {
    static final String LABEL = "dev.baton/mcp-request-state/v1";

    private RequestStateKey() {}

    /**
     * @throws IllegalArgumentException when {@code BATON_TOKEN_KEY} is set but not base64
     */
    public static byte[] from(Map<String, String> env) {
        String shared = env.get(TokenKeys.KEY_VARIABLE);
        if (shared == null || shared.isBlank()) return random();
        byte[] secret;
        try {
            secret = Base64.getDecoder().decode(shared.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(TokenKeys.KEY_VARIABLE + " must be base64", e);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(LABEL.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    /** A key of this process only. */
    static byte[] random() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }
}
