package dev.baton.mcp.client.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpTransport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the authorization server of each server with {@code auth: oauth}: the configured issuer, or the first of the
 * {@code authorization_servers} in the server's protected-resource metadata (RFC 9728, at
 * {@code /.well-known/oauth-protected-resource} + the server's path, then at the root); then that issuer's metadata
 * (RFC 8414, falling back to OpenID Connect discovery), whose {@code issuer} must be the one asked for. Found once per
 * server and kept; a failed look-up is tried again next time.
 */
final class AuthorizationServers {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final Map<String, AuthorizationServerMetadata> found = new ConcurrentHashMap<>();

    /**
     * @throws AccountFlowException ({@code PROVIDER_FAILED}) when neither the server nor its issuer says where to go
     */
    AuthorizationServerMetadata of(McpServerSettings server) {
        AuthorizationServerMetadata known = found.get(server.name());
        if (known != null) return known;
        URI issuer = server.oauth().issuer() != null ? server.oauth().issuer() : discoverIssuer(server);
        AuthorizationServerMetadata metadata = metadata(server.name(), issuer);
        found.put(server.name(), metadata);
        return metadata;
    }

    private URI discoverIssuer(McpServerSettings server) {
        URI url = ((McpTransport.Http) server.transport()).url();
        String origin = url.getScheme() + "://" + url.getRawAuthority();
        String path = url.getRawPath() == null || url.getRawPath().equals("/") ? "" : url.getRawPath();
        List<String> candidates = path.isEmpty()
                ? List.of(origin + "/.well-known/oauth-protected-resource")
                : List.of(
                        origin + "/.well-known/oauth-protected-resource" + path,
                        origin + "/.well-known/oauth-protected-resource");
        String tried = "";
        for (String candidate : candidates) {
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(candidate))
                                .timeout(TIMEOUT)
                                .header("Accept", "application/json")
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    tried += " " + candidate + " (" + response.statusCode() + ")";
                    continue;
                }
                JsonNode metadata = JSON.readTree(response.body());
                String resource = metadata.path("resource").asText(null);
                // RFC 9728 §3.3: metadata about another resource must not be used
                if (resource != null && !sameResource(resource, server.oauth().resource()))
                    throw new AccountFlowException(
                            AccountFlowException.Kind.PROVIDER_FAILED,
                            "the protected-resource metadata of " + server.name() + " is about " + resource + ", not "
                                    + server.oauth().resource());
                JsonNode servers = metadata.path("authorization_servers");
                if (servers.isArray() && !servers.isEmpty() && servers.get(0).isTextual())
                    return URI.create(servers.get(0).asText());
                tried += " " + candidate + " (no authorization_servers)";
            } catch (IOException | IllegalArgumentException e) {
                tried += " " + candidate + " (" + e.getClass().getSimpleName() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AccountFlowException(AccountFlowException.Kind.PROVIDER_FAILED, "interrupted");
            }
        }
        throw new AccountFlowException(
                AccountFlowException.Kind.PROVIDER_FAILED,
                "MCP server " + server.name() + " does not say which authorization server it trusts (tried" + tried
                        + "); set oauth.issuer");
    }

    private static AuthorizationServerMetadata metadata(String server, URI issuer) {
        Issuer id = new Issuer(issuer);
        int millis = (int) TIMEOUT.toMillis();
        try {
            return AuthorizationServerMetadata.resolve(id, millis, millis);
        } catch (GeneralException | IOException oauthMetadataMissing) {
            try {
                return OIDCProviderMetadata.resolve(id, millis, millis);
            } catch (GeneralException | IOException e) {
                throw new AccountFlowException(
                        AccountFlowException.Kind.PROVIDER_FAILED,
                        "the authorization server " + issuer + " of " + server + " publishes no usable metadata: "
                                + e.getMessage());
            }
        }
    }

    private static boolean sameResource(String a, URI b) {
        return stripSlash(a).equals(stripSlash(b.toString()));
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
