package dev.baton.mcp.client.oauth;

import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import dev.baton.mcp.config.McpServerSettings;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authorization server's token and revocation endpoints, as Baton uses them for users' accounts: a grant (code
 * with verifier, or refresh token) exchanged for tokens bound to the server's resource (RFC 8707), and tokens revoked
 * (RFC 7009) when a user disconnects. Bounded and never redirected ({@link OAuthClients#timeouts}).
 */
final class TokenEndpoint {
    private static final Logger log = LoggerFactory.getLogger(TokenEndpoint.class);

    private final AuthorizationServers authorizationServers;
    private final OAuthClients clients;
    private final Clock clock;

    TokenEndpoint(AuthorizationServers authorizationServers, OAuthClients clients, Clock clock) {
        this.authorizationServers = authorizationServers;
        this.clients = clients;
        this.clock = clock;
    }

    /**
     * @throws AccountFlowException {@code DENIED} when the endpoint refused the grant, {@code PROVIDER_FAILED} when it
     *     failed
     */
    Tokens exchange(
            McpServerSettings settings,
            AuthorizationServerMetadata metadata,
            OAuthClients.Client client,
            AuthorizationGrant grant) {
        TokenRequest.Builder request = client.secret() != null
                ? new TokenRequest.Builder(metadata.getTokenEndpointURI(), client.authentication(), grant)
                : new TokenRequest.Builder(metadata.getTokenEndpointURI(), client.id(), grant);
        request.resources(settings.oauth().resource());
        try {
            TokenResponse response = TokenResponse.parse(
                    OAuthClients.timeouts(request.build().toHTTPRequest()).send());
            if (response instanceof TokenErrorResponse error)
                throw new AccountFlowException(
                        AccountFlowException.Kind.DENIED,
                        "the token endpoint said " + error.getErrorObject().getCode()
                                + (error.getErrorObject().getDescription() == null
                                        ? ""
                                        : ": " + error.getErrorObject().getDescription()));
            return response.toSuccessResponse().getTokens();
        } catch (IOException | ParseException e) {
            throw new AccountFlowException(
                    AccountFlowException.Kind.PROVIDER_FAILED,
                    "the token endpoint of " + settings.name() + "'s authorization server failed: " + e.getMessage());
        }
    }

    /** Revokes the refresh and access tokens (when the server offers revocation); a failure is only logged. */
    void revoke(McpServerSettings settings, AccountTokens tokens) {
        try {
            AuthorizationServerMetadata metadata = authorizationServers.of(settings);
            URI endpoint = metadata.getRevocationEndpointURI();
            if (endpoint == null) return;
            OAuthClients.Client client = clients.byId(settings, metadata, tokens.clientId());
            if (client == null) return;
            List<com.nimbusds.oauth2.sdk.token.Token> revoked = tokens.refreshToken() == null
                    ? List.of(new com.nimbusds.oauth2.sdk.token.BearerAccessToken(tokens.accessToken()))
                    : List.of(
                            new RefreshToken(tokens.refreshToken()),
                            new com.nimbusds.oauth2.sdk.token.BearerAccessToken(tokens.accessToken()));
            for (com.nimbusds.oauth2.sdk.token.Token token : revoked) {
                TokenRevocationRequest request = client.secret() != null
                        ? new TokenRevocationRequest(endpoint, client.authentication(), token)
                        : new TokenRevocationRequest(endpoint, client.id(), token);
                var response = OAuthClients.timeouts(request.toHTTPRequest()).send();
                if (response.getStatusCode() != 200)
                    log.warn("MCP server {}: revoking a token answered {}", settings.name(), response.getStatusCode());
            }
        } catch (IOException | RuntimeException e) {
            log.warn(
                    "MCP server {}: revoking a user's token failed ({}); it was forgotten here",
                    settings.name(),
                    e.toString());
        }
    }

    /** The tokens Baton keeps from a token response (a refresh keeps the previous refresh token if none came). */
    AccountTokens own(Tokens tokens, OAuthClients.Client client, String previousRefresh) {
        AccessToken access = tokens.getAccessToken();
        Instant expiresAt = access.getLifetime() > 0 ? clock.instant().plusSeconds(access.getLifetime()) : null;
        String refresh =
                tokens.getRefreshToken() != null ? tokens.getRefreshToken().getValue() : previousRefresh;
        return new AccountTokens(
                access.getValue(),
                refresh,
                expiresAt,
                access.getScope() == null ? null : access.getScope().toString(),
                client.id().getValue());
    }
}
