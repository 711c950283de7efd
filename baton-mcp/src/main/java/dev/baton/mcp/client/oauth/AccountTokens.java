package dev.baton.mcp.client.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One user's tokens for their account on one server, in the clear: only ever in memory, and sealed
 * ({@link TokenCipher}) before a store sees them.
 *
 * @param refreshToken null when the server issued none (the user reconnects when the access token expires)
 * @param expiresAt when the access token expires; null when the server did not say
 * @param clientId the client the tokens were issued to (a refresh must use the same one)
 */
public record AccountTokens(String accessToken, String refreshToken, Instant expiresAt, String scope, String clientId) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public AccountTokens {
        Objects.requireNonNull(accessToken, "accessToken");
        Objects.requireNonNull(clientId, "clientId");
    }

    /** Whether the access token expires within {@code margin} of {@code now} (or has). */
    public boolean expiresWithin(Duration margin, Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now.plus(margin));
    }

    String toJson() {
        ObjectNode n = JSON.createObjectNode().put("access", accessToken).put("client", clientId);
        if (refreshToken != null) n.put("refresh", refreshToken);
        if (expiresAt != null) n.put("expires", expiresAt.toString());
        if (scope != null) n.put("scope", scope);
        return n.toString();
    }

    static AccountTokens fromJson(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            return new AccountTokens(
                    n.path("access").asText(),
                    n.hasNonNull("refresh") ? n.path("refresh").asText() : null,
                    n.hasNonNull("expires") ? Instant.parse(n.path("expires").asText()) : null,
                    n.hasNonNull("scope") ? n.path("scope").asText() : null,
                    n.path("client").asText());
        } catch (IOException e) {
            throw new TokenCipher.SealBroken("sealed tokens are not readable");
        }
    }

    @Override
    public String toString() {
        return "AccountTokens[access=***, refresh=" + (refreshToken == null ? "none" : "***") + ", expiresAt="
                + expiresAt + ", scope=" + scope + ", clientId=" + clientId + "]";
    }
}
