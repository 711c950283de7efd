package dev.baton.mcp.client.oauth;

import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.client.ClientInformationResponse;
import com.nimbusds.oauth2.sdk.client.ClientMetadata;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationRequest;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.OAuthSettings;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who Baton is to each server's authorization server, in the order the MCP authorization spec prefers: the
 * pre-registered client of the configuration; else its Client ID Metadata Document, whose URL is the client id; else a
 * client registered dynamically (RFC 7591) as a public client with PKCE, kept for as long as Baton runs (after a
 * restart, tokens issued to it cannot be refreshed and the user connects again).
 */
final class OAuthClients {
    static final int TIMEOUT_MILLIS = 10_000;

    /** A client of an authorization server: its id, and its secret when it is a confidential one. */
    record Client(ClientID id, Secret secret) {
        /** The client authentication for the token and revocation endpoints; null for a public client. */
        ClientSecretBasic authentication() {
            return secret == null ? null : new ClientSecretBasic(id, secret);
        }
    }

    private final URI callback;
    private final Map<String, Client> registered = new ConcurrentHashMap<>();

    OAuthClients(URI callback) {
        this.callback = callback;
    }

    Client of(McpServerSettings server, AuthorizationServerMetadata metadata) {
        OAuthSettings oauth = server.oauth();
        return switch (oauth.clientKind()) {
            case PRE_REGISTERED ->
                new Client(
                        new ClientID(oauth.clientId()),
                        oauth.clientSecret() == null ? null : new Secret(oauth.clientSecret()));
            case METADATA_DOCUMENT ->
                new Client(new ClientID(oauth.clientMetadataUrl().toString()), null);
            case DYNAMIC_REGISTRATION -> registered.computeIfAbsent(server.name(), n -> register(n, metadata));
        };
    }

    /** The client a token was issued to, when it is still the one Baton uses (a refresh must use the same). */
    Client byId(McpServerSettings server, AuthorizationServerMetadata metadata, String clientId) {
        Client current = of(server, metadata);
        return current.id().getValue().equals(clientId) ? current : null;
    }

    private Client register(String server, AuthorizationServerMetadata metadata) {
        URI endpoint = metadata.getRegistrationEndpointURI();
        if (endpoint == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.PROVIDER_FAILED,
                    "MCP server " + server + ": its authorization server " + metadata.getIssuer()
                            + " allows no dynamic client registration; configure oauth.clientId or"
                            + " oauth.clientMetadataUrl");
        ClientMetadata wanted = new ClientMetadata();
        wanted.setName("Baton");
        wanted.setRedirectionURI(callback);
        wanted.setGrantTypes(Set.of(GrantType.AUTHORIZATION_CODE, GrantType.REFRESH_TOKEN));
        wanted.setResponseTypes(Set.of(ResponseType.CODE));
        wanted.setTokenEndpointAuthMethod(ClientAuthenticationMethod.NONE);
        try {
            HTTPRequest request = new ClientRegistrationRequest(endpoint, wanted, null).toHTTPRequest();
            timeouts(request);
            ClientRegistrationResponse response = ClientRegistrationResponse.parse(request.send());
            if (!(response instanceof ClientInformationResponse info))
                throw new AccountFlowException(
                        AccountFlowException.Kind.PROVIDER_FAILED,
                        "MCP server " + server + ": dynamic client registration was refused: "
                                + response.toErrorResponse().getErrorObject().getDescription());
            return new Client(
                    info.getClientInformation().getID(),
                    info.getClientInformation().getSecret());
        } catch (IOException | ParseException e) {
            throw new AccountFlowException(
                    AccountFlowException.Kind.PROVIDER_FAILED,
                    "MCP server " + server + ": dynamic client registration failed: " + e.getMessage());
        }
    }

    /** Every request Baton sends an authorization server: bounded, and never redirected elsewhere. */
    static HTTPRequest timeouts(HTTPRequest request) {
        request.setConnectTimeout(TIMEOUT_MILLIS);
        request.setReadTimeout(TIMEOUT_MILLIS);
        request.setFollowRedirects(false);
        return request;
    }
}
