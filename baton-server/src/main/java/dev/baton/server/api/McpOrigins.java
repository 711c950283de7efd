package dev.baton.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which browser origins may call {@code /mcp} (the MCP transport spec asks HTTP servers to check {@code Origin}, against
 * DNS rebinding): a request without an {@code Origin} (a non-browser client: Claude Desktop, the Inspector's proxy,
 * another server) is fine; one with an origin is accepted when it is a loopback page ({@code http(s)://localhost},
 * {@code 127.0.0.1} or {@code [::1]}, any port) or one of {@code server.mcpAllowedOrigins}.
 *
 * <p>"The same host as the request's {@code Host} header" is deliberately not a default: in a DNS-rebinding attack
 * the attacker's name points at Baton, so the browser sends that name as both {@code Host} and {@code Origin}.
 *
 * @param allowed exact origins ({@code scheme://host[:port]}, lower case, no path)
 */
public record McpOrigins(Set<String> allowed) {
    public static final McpOrigins LOOPBACK_ONLY = new McpOrigins(Set.of());

    public McpOrigins {
        allowed = Set.copyOf(allowed);
    }

    /**
     * {@code server.mcpAllowedOrigins} of the {@code server:} section: a list of origins such as
     * {@code https://app.example.com}; absent is none (loopback pages only).
     *
     * @throws IllegalArgumentException naming the entry that is not an origin
     */
    public static McpOrigins from(JsonNode server) {
        JsonNode list = server == null ? null : server.path("mcpAllowedOrigins");
        if (list == null || list.isMissingNode() || list.isNull()) return LOOPBACK_ONLY;
        if (!list.isArray())
            throw new IllegalArgumentException(
                    "server.mcpAllowedOrigins must be a list of origins (https://host[:port])");
        Set<String> origins = new LinkedHashSet<>();
        for (JsonNode entry : list) {
            String origin = entry.isTextual() ? normalised(entry.asText()) : null;
            if (origin == null)
                throw new IllegalArgumentException("server.mcpAllowedOrigins: " + entry
                        + " is not an origin (scheme://host[:port], http or https, no path)");
            origins.add(origin);
        }
        return new McpOrigins(origins);
    }

    /** Whether a request with this {@code Origin} header (null when it has none) may use the endpoint. */
    public boolean allows(String origin) {
        if (origin == null) return true;
        String normalised = normalised(origin);
        if (normalised == null) return false;
        if (allowed.contains(normalised)) return true;
        String host = URI.create(normalised).getHost();
        return host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]");
    }

    /** {@code scheme://host[:port]} in lower case, or null when the text is not an http(s) origin. */
    private static String normalised(String text) {
        String trimmed = text.strip();
        if (trimmed.endsWith("/")) trimmed = trimmed.substring(0, trimmed.length() - 1);
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (java.net.URISyntaxException e) {
            return null;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) return null;
        if (uri.getHost() == null || uri.getUserInfo() != null) return null;
        if (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) return null;
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) return null;
        return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }
}
