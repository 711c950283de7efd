package dev.baton.mcp.config;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How Baton becomes an OAuth client of an HTTP MCP server with {@code auth: oauth}, once per user: each user connects
 * their own account on the server (authorization code with PKCE), and their calls carry their own access token.
 *
 * @param issuer the authorization server; null to discover it from the MCP server's protected-resource metadata
 *     (RFC 9728) on the first connection
 * @param clientId a client pre-registered with the authorization server; null for none
 * @param clientSecret that client's secret, for a confidential client; null for a public one
 * @param clientMetadataUrl the URL of Baton's Client ID Metadata Document, used as the client id; null for none. With
 *     neither a client id nor this, Baton registers itself dynamically (RFC 7591) when the server allows it
 * @param scopes asked for; empty to let the server decide (or use the metadata's {@code scopes_supported})
 * @param resource the RFC 8707 resource indicator sent with every request for a token; the server's URL by default
 */
public record OAuthSettings(
        URI issuer, String clientId, String clientSecret, URI clientMetadataUrl, List<String> scopes, URI resource) {

    public OAuthSettings {
        if (issuer != null) requireHttp(issuer, "issuer");
        clientId = blankToNull(clientId);
        clientSecret = blankToNull(clientSecret);
        if (clientId != null && clientMetadataUrl != null)
            throw new IllegalArgumentException(
                    "set clientId (a pre-registered client) or clientMetadataUrl (a Client ID"
                            + " Metadata Document), not both");
        if (clientSecret != null && clientId == null)
            throw new IllegalArgumentException("clientSecret needs the clientId it belongs to");
        if (clientMetadataUrl != null) {
            requireHttp(clientMetadataUrl, "clientMetadataUrl");
            if (!"https".equalsIgnoreCase(clientMetadataUrl.getScheme()) && !loopback(clientMetadataUrl))
                throw new IllegalArgumentException("clientMetadataUrl must be an https URL, got " + clientMetadataUrl);
        }
        scopes = List.copyOf(scopes == null ? List.of() : scopes);
        Objects.requireNonNull(resource, "resource");
        requireHttp(resource, "resource");
    }

    /** How Baton identifies itself to the authorization server. */
    public enum ClientKind {
        PRE_REGISTERED,
        METADATA_DOCUMENT,
        DYNAMIC_REGISTRATION
    }

    public ClientKind clientKind() {
        if (clientId != null) return ClientKind.PRE_REGISTERED;
        if (clientMetadataUrl != null) return ClientKind.METADATA_DOCUMENT;
        return ClientKind.DYNAMIC_REGISTRATION;
    }

    @Override
    public String toString() {
        return "OAuthSettings[issuer=" + issuer + ", clientId=" + clientId + ", clientSecret="
                + (clientSecret == null ? null : "***") + ", clientMetadataUrl=" + clientMetadataUrl + ", scopes="
                + scopes + ", resource=" + resource + "]";
    }

    static void requireHttp(URI uri, String what) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null)
            throw new IllegalArgumentException(what + " must be an http(s) URL, got " + uri);
    }

    private static boolean loopback(URI uri) {
        String host = uri.getHost();
        return "localhost".equals(host) || "127.0.0.1".equals(host) || "[::1]".equals(host);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
