package dev.baton.mcp.client.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;

/**
 * An authorization a user started and has not finished: carried, sealed, in the {@code state} parameter itself, so any
 * instance can finish it and none keeps a table of them. It names the user and server, holds the PKCE verifier, ends
 * at {@code expiresAt}, and is bound to the browser that started it (the hash of a random value kept in that browser's
 * cookie), so a callback that another browser, or another user, carries in is refused.
 */
record PendingAuthorization(
        String tenantId,
        String userId,
        String server,
        String codeVerifier,
        String browserHash,
        String clientId,
        Instant expiresAt) {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What a sealed state is bound to: nothing else Baton seals opens as one. */
    static final String BOUND_TO = "mcp-oauth-state";

    String seal(TokenCipher cipher) {
        String json = JSON.createObjectNode()
                .put("t", tenantId)
                .put("u", userId)
                .put("s", server)
                .put("v", codeVerifier)
                .put("b", browserHash)
                .put("c", clientId)
                .put("e", expiresAt.toString())
                .toString();
        return cipher.seal(json, BOUND_TO);
    }

    /**
     * @throws TokenCipher.SealBroken when it was not sealed here, or was changed
     */
    static PendingAuthorization open(String state, TokenCipher cipher) {
        String json = cipher.open(state, BOUND_TO);
        try {
            JsonNode n = JSON.readTree(json);
            return new PendingAuthorization(
                    n.path("t").asText(),
                    n.path("u").asText(),
                    n.path("s").asText(),
                    n.path("v").asText(),
                    n.path("b").asText(),
                    n.path("c").asText(),
                    Instant.parse(n.path("e").asText()));
        } catch (IOException | RuntimeException e) {
            throw new TokenCipher.SealBroken("the state is not readable");
        }
    }

    /** The hash of the browser's random value, as the state keeps it. */
    static String hashOf(String browserValue) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(browserValue.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code browserValue} is the one this authorization was started with. */
    boolean startedBy(String browserValue) {
        return browserValue != null
                && MessageDigest.isEqual(
                        hashOf(browserValue).getBytes(StandardCharsets.UTF_8),
                        browserHash.getBytes(StandardCharsets.UTF_8));
    }
}
