package dev.baton.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.config.Durations;
import dev.baton.runtime.config.ConfigException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How bearer tokens are verified: the {@code jwt:} section of baton.yaml, the {@code BATON_JWT_*} environment
 * variables (which win), and the HS256 secret ({@code BATON_JWT_SECRET} / {@code auth.jwtSecret}).
 *
 * <pre>{@code
 * jwt:
 *   jwksUrl: https://idp.example.org/.well-known/jwks.json  # BATON_JWT_JWKS_URL: RS256 and ES256 tokens
 *   issuer: https://idp.example.org/                         # BATON_JWT_ISSUER: iss must equal it
 *   audience: baton                                          # BATON_JWT_AUDIENCE: aud must contain it
 *   clockSkew: 30s                                           # BATON_JWT_CLOCK_SKEW: leeway for exp and nbf
 *   tenantClaim: org_id                                      # BATON_JWT_TENANT_CLAIM: for JWKS tokens only
 *   jwksTimeout: 2s                                          # BATON_JWT_JWKS_TIMEOUT: connect and read timeout
 *   mcpResource: https://baton.example.org/mcp               # BATON_JWT_MCP_RESOURCE: /mcp's public URL; tokens
 *                                                            #   presented to /mcp must name it in aud
 * }</pre>
 *
 * <p>Algorithms are chosen by the server, never by the token: HS256 is verified only with the secret, RS256 and
 * ES256 only with keys from the JWKS URL. When both are configured both kinds of token are accepted, each with its
 * own key, so a public key can never serve as an HMAC secret.
 *
 * @param hs256Secret the shared secret for HS256 tokens; null when only JWKS tokens are accepted
 * @param jwksUrl where the identity provider publishes its public keys; null when only HS256 tokens are accepted
 * @param issuer when set, every token's {@code iss} must equal it
 * @param audience when set, every token's {@code aud} must contain it
 * @param clockSkew how far {@code exp} and {@code nbf} may be off; Nimbus counts whole seconds, so it is rounded up
 * @param tenantClaim the claim a JWKS token names its tenant in; HS256 tokens always use {@code tenant}
 * @param jwksTimeout the connect and the read timeout of one JWKS fetch
 * @param mcpResource the public URL of {@code /mcp}, its OAuth resource identifier (RFC 8707, RFC 9728): when set, a
 *     token presented to {@code /mcp} must carry it in {@code aud} (in place of {@code audience}), and the protected
 *     resource metadata names it; null to derive the metadata's resource from each request and check {@code /mcp}'s
 *     tokens against {@code audience} like every other route's
 */
public record JwtSettings(
        JwtSecret hs256Secret,
        URI jwksUrl,
        String issuer,
        String audience,
        Duration clockSkew,
        String tenantClaim,
        Duration jwksTimeout,
        URI mcpResource) {

    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);
    public static final String DEFAULT_TENANT_CLAIM = "tenant";
    public static final Duration DEFAULT_JWKS_TIMEOUT = Duration.ofSeconds(2);

    public JwtSettings {
        if (hs256Secret == null && jwksUrl == null) {
            throw new ConfigException("no JWT verification configured: set BATON_JWT_SECRET (HS256) "
                    + "or BATON_JWT_JWKS_URL (RS256/ES256)");
        }
        if (jwksUrl != null) checkJwksUrl(jwksUrl);
        issuer = blankToNull(issuer);
        audience = blankToNull(audience);
        tenantClaim = blankToNull(tenantClaim) == null ? DEFAULT_TENANT_CLAIM : tenantClaim.strip();
        if (jwksUrl == null && !tenantClaim.equals(DEFAULT_TENANT_CLAIM)) {
            throw new ConfigException("jwt.tenantClaim (BATON_JWT_TENANT_CLAIM) applies to JWKS tokens only: "
                    + "set BATON_JWT_JWKS_URL too; HS256 tokens always carry their tenant in 'tenant'");
        }
        clockSkew = clockSkew == null ? DEFAULT_CLOCK_SKEW : clockSkew;
        if (clockSkew.isNegative()) throw new ConfigException("jwt.clockSkew must not be negative");
        jwksTimeout = jwksTimeout == null ? DEFAULT_JWKS_TIMEOUT : jwksTimeout;
        if (jwksTimeout.isNegative() || jwksTimeout.isZero() || jwksTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new ConfigException("jwt.jwksTimeout must be positive and below 24 days");
        }
        if (mcpResource != null) checkResource(mcpResource);
    }

    /** Without a resource for {@code /mcp}. */
    public JwtSettings(
            JwtSecret hs256Secret,
            URI jwksUrl,
            String issuer,
            String audience,
            Duration clockSkew,
            String tenantClaim,
            Duration jwksTimeout) {
        this(hs256Secret, jwksUrl, issuer, audience, clockSkew, tenantClaim, jwksTimeout, null);
    }

    /**
     * What a token presented to {@code /mcp} must carry in {@code aud}: the resource when one is configured (a token
     * issued for another resource is refused, RFC 8707), else the audience every route checks (null: none).
     */
    public String mcpAudience() {
        return mcpResource != null ? mcpResource.toString() : audience;
    }

    /** HS256 only, with the defaults for everything else (tests, {@code baton token}). */
    public static JwtSettings hs256(JwtSecret secret) {
        return new JwtSettings(secret, null, null, null, null, null, null);
    }

    /**
     * Reads the {@code jwt:} section; each {@code BATON_JWT_*} variable that is set and not blank overrides its key.
     *
     * @param section the {@code jwt:} section, missing or null when absent
     * @param hs256Secret the configured HS256 secret, null when none is
     * @throws ConfigException when a value is malformed; the message names the key and says what to write
     */
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "jwt";

    /** Its keys. */
    public static final List<String> KEYS =
            List.of("jwksUrl", "issuer", "audience", "clockSkew", "tenantClaim", "jwksTimeout", "mcpResource");

    /** True when a JWKS URL is configured (env or baton.yaml): tokens then come from an identity provider. */
    public static boolean jwksConfigured(JsonNode section, Map<String, String> env) {
        return text(
                        env == null ? Map.of() : env,
                        "BATON_JWT_JWKS_URL",
                        section == null ? MissingNode.getInstance() : section,
                        "jwksUrl")
                != null;
    }

    public static JwtSettings parse(JsonNode section, Map<String, String> env, String hs256Secret) {
        JsonNode s = section == null || section.isNull() ? MissingNode.getInstance() : section;
        ConfigSection.of(s, SECTION, KEYS);
        Map<String, String> e = env == null ? Map.of() : env;
        String url = text(e, "BATON_JWT_JWKS_URL", s, "jwksUrl");
        String resource = text(e, "BATON_JWT_MCP_RESOURCE", s, "mcpResource");
        return new JwtSettings(
                hs256Secret == null || hs256Secret.isBlank() ? null : JwtSecret.of(hs256Secret),
                url == null ? null : uri(url, "jwt.jwksUrl (BATON_JWT_JWKS_URL)"),
                text(e, "BATON_JWT_ISSUER", s, "issuer"),
                text(e, "BATON_JWT_AUDIENCE", s, "audience"),
                duration(e, "BATON_JWT_CLOCK_SKEW", s, "clockSkew"),
                text(e, "BATON_JWT_TENANT_CLAIM", s, "tenantClaim"),
                duration(e, "BATON_JWT_JWKS_TIMEOUT", s, "jwksTimeout"),
                resource == null ? null : uri(resource, "jwt.mcpResource (BATON_JWT_MCP_RESOURCE)"));
    }

    /**
     * ISO-8601 ({@code PT30S}) or a whole number with a unit: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}. A
     * bare number is refused rather than guessed at: seconds or milliseconds would both be plausible.
     *
     * @param name what to call the value in the error message
     */
    public static Duration parseDuration(String text, String name) {
        try {
            return Durations.parse(text, name);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static String text(Map<String, String> env, String variable, JsonNode section, String key) {
        String fromEnv = env.get(variable);
        if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.strip();
        JsonNode v = section.path(key);
        if (v.isMissingNode() || v.isNull()) return null;
        if (!v.isTextual()) throw ConfigProblem.at(section, key, "jwt." + key + " must be a string");
        return v.asText().strip();
    }

    private static Duration duration(Map<String, String> env, String variable, JsonNode section, String key) {
        String fromEnv = env.get(variable);
        if (fromEnv != null && !fromEnv.isBlank()) return parseDuration(fromEnv, variable);
        JsonNode v = section.path(key);
        if (v.isMissingNode() || v.isNull()) return null;
        try {
            return Durations.parse(v.asText(), "jwt." + key);
        } catch (IllegalArgumentException e) {
            throw ConfigProblem.at(section, key, e.getMessage());
        }
    }

    private static URI uri(String text, String name) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new ConfigException(name + " is not a URL: " + text);
        }
    }

    /** RFC 8707 §2: an absolute URI without a fragment; RFC 9728 derives the metadata URL from its host and path. */
    private static void checkResource(URI resource) {
        String scheme = resource.getScheme() == null ? "" : resource.getScheme().toLowerCase(Locale.ROOT);
        if (!resource.isAbsolute()
                || resource.getHost() == null
                || !(scheme.equals("https") || scheme.equals("http"))
                || resource.getRawFragment() != null
                || resource.getRawQuery() != null) {
            throw new ConfigException("jwt.mcpResource (BATON_JWT_MCP_RESOURCE) must be the http(s) URL of /mcp "
                    + "without query or fragment, e.g. https://baton.example.org/mcp; got " + resource);
        }
    }

    private static void checkJwksUrl(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!url.isAbsolute() || url.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new ConfigException("jwt.jwksUrl (BATON_JWT_JWKS_URL) must be an http(s) URL, got " + url);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
