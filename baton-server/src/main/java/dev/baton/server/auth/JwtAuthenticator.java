package dev.baton.server.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSetUnavailableException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import dev.baton.core.auth.Principal;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies bearer tokens with Nimbus' {@link DefaultJWTProcessor}: HS256 with the shared secret, RS256 and ES256
 * with the keys published at the JWKS URL (see {@link JwksSource}). The algorithms are pinned per key source — an
 * HS256 token is only ever checked against the secret, an RS256/ES256 token only against the JWKS — so "none",
 * algorithm confusion and keys named by the token ({@code jku}, {@code x5u}, {@code jwk}) are refused.
 *
 * <p>{@code sub} and {@code exp} are required; {@code nbf} is honoured; {@code exp} and {@code nbf} allow the
 * configured clock skew; {@code iss} and {@code aud} must match when configured ({@code aud} per route: {@code /mcp}
 * checks its resource when one is configured, see {@link #authenticateForMcp}). Every refusal is an
 * {@link AuthException} (401) whose message says why — including a JWKS endpoint that cannot be reached: the request
 * is not served either way, and the client cannot tell an outage from a bad key, so Baton keeps one status for both.
 */
public final class JwtAuthenticator {

    private static final Logger log = LoggerFactory.getLogger(JwtAuthenticator.class);

    /** What a JWKS token may be signed with. */
    public static final Set<JWSAlgorithm> JWKS_ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);

    private static final String DEFAULT_ROLE = "user";
    private static final String HS256_TENANT_CLAIM = "tenant";
    // "at+jwt" is what RFC 9068 access tokens carry; no typ at all is common too
    private static final DefaultJOSEObjectTypeVerifier<SecurityContext> TYPES =
            new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null);

    /** How long a verified token's signature check is trusted without being done again. */
    static final Duration VERIFIED_FOR = Duration.ofSeconds(60);

    private final DefaultJWTProcessor<SecurityContext> hs256;
    private final DefaultJWTProcessor<SecurityContext> jwks;
    private final JWKSource<SecurityContext> jwksKeys;
    /**
     * Tokens whose signature checked out lately, with their claims and principal: a client sends the same token with
     * every request, and parsing it and checking its signature again was a twentieth of a turn's CPU. The claims
     * (expiry, not-before, issuer, audience) are still checked against the clock on every request; only the signature
     * and parsing are remembered, for at most {@link #VERIFIED_FOR}, only for tokens that passed, and for a JWKS token
     * only while the set Baton last fetched still publishes its key (a withdrawn key stops being honoured as soon as
     * Baton has seen the set without it).
     */
    private final Cache<String, Verified> verified = Caffeine.newBuilder()
            .maximumSize(10_000)
            .expireAfterWrite(VERIFIED_FOR)
            .build();

    /**
     * @param keys for a JWKS token, the published keys with its {@code kid} when it was verified: the remembered check
     *     holds only while the set still publishes exactly those (a key withdrawn or replaced is honoured no longer
     *     once Baton has seen the new set); empty for an HS256 token
     */
    private record Verified(
            JWTClaimsSet claims,
            DefaultJWTProcessor<SecurityContext> processor,
            Principal principal,
            String kid,
            List<JWK> keys) {}

    private final String jwksTenantClaim;
    private final String audience;
    private final String mcpAudience;
    private final Map<String, Set<String>> rolePermissions;

    /** HS256 tokens only, with the default clock skew. */
    public JwtAuthenticator(JwtSecret secret, Map<String, Set<String>> rolePermissions) {
        this(JwtSettings.hs256(secret), rolePermissions, Clock.systemUTC());
    }

    private JwtAuthenticator(JwtSettings settings, Map<String, Set<String>> rolePermissions, Clock clock) {
        this.rolePermissions = Map.copyOf(rolePermissions);
        this.hs256 = settings.hs256Secret() == null
                ? null
                : processor(
                        new JWSVerificationKeySelector<>(
                                JWSAlgorithm.HS256,
                                new ImmutableSecret<>(settings.hs256Secret().bytes())),
                        settings,
                        clock);
        this.jwksKeys =
                settings.jwksUrl() == null ? null : JwksSource.create(settings.jwksUrl(), settings.jwksTimeout());
        this.jwks = jwksKeys == null
                ? null
                : processor(new JWSVerificationKeySelector<>(JWKS_ALGORITHMS, jwksKeys), settings, clock);
        this.jwksTenantClaim = settings.tenantClaim();
        this.audience = settings.audience();
        this.mcpAudience = settings.mcpAudience();
    }

    /** An authenticator for these settings; expiry is judged by the system clock. */
    public static JwtAuthenticator create(JwtSettings settings, Map<String, Set<String>> rolePermissions) {
        return create(settings, rolePermissions, Clock.systemUTC());
    }

    /** @param clock what {@code exp} and {@code nbf} are compared with */
    public static JwtAuthenticator create(JwtSettings settings, Map<String, Set<String>> rolePermissions, Clock clock) {
        log.info(
                "JWT verification: HS256 {}, JWKS {}, issuer {}, audience {}, /mcp audience {}, clock skew {}, tenant claim of JWKS tokens '{}'",
                settings.hs256Secret() == null ? "off" : "with the configured secret",
                settings.jwksUrl() == null ? "off" : settings.jwksUrl() + " " + JWKS_ALGORITHMS,
                settings.issuer() == null ? "not checked" : settings.issuer(),
                settings.audience() == null ? "not checked" : settings.audience(),
                settings.mcpAudience() == null ? "not checked" : settings.mcpAudience(),
                settings.clockSkew(),
                settings.tenantClaim());
        return new JwtAuthenticator(settings, rolePermissions, clock);
    }

    /**
     * A token for Baton's API: its {@code aud} must contain the configured audience, when there is one.
     *
     * @param authorization the raw Authorization header, may be null
     */
    public Principal authenticate(String authorization) {
        return authenticate(authorization, audience);
    }

    /**
     * A token for {@code /mcp}: its {@code aud} must contain the MCP resource when one is configured (RFC 8707: a token
     * issued for another resource is refused), else the audience every route checks.
     */
    public Principal authenticateForMcp(String authorization) {
        return authenticate(authorization, mcpAudience);
    }

    /** @param requiredAudience what {@code aud} must contain; null when any audience (or none) is accepted */
    private Principal authenticate(String authorization, String requiredAudience) {
        if (authorization == null || authorization.isBlank()) {
            throw new AuthException("missing bearer token");
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new AuthException("Authorization must be 'Bearer <token>'");
        }
        String token = authorization.substring(7).trim();
        Verified known = verified.getIfPresent(token);
        if (known != null && !stillPublished(known)) {
            verified.invalidate(token);
            known = null;
        }
        if (known != null) {
            try {
                known.processor().getJWTClaimsSetVerifier().verify(known.claims(), null);
            } catch (BadJOSEException e) {
                throw new AuthException(reason(e));
            }
            checkAudience(known.claims(), requiredAudience);
            return known.principal();
        }
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException e) {
            throw new AuthException("malformed token");
        }
        // The header only picks which pinned processor looks at the token; each refuses every algorithm but its own.
        boolean viaJwks = jwks != null
                && (hs256 == null || !JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()));
        DefaultJWTProcessor<SecurityContext> processor = viaJwks ? jwks : hs256;
        JWTClaimsSet claims;
        try {
            claims = processor.process(jwt, null);
        } catch (BadJOSEException e) {
            throw new AuthException(reason(e));
        } catch (JOSEException e) {
            throw new AuthException(unverifiable(e));
        }
        Principal principal = principal(claims, viaJwks ? jwksTenantClaim : HS256_TENANT_CLAIM);
        remember(token, jwt, claims, processor, principal, viaJwks);
        checkAudience(claims, requiredAudience);
        return principal;
    }

    /**
     * Checked per route rather than by Nimbus' claims verifier, which knows one audience: {@code /mcp} may require its
     * resource where the API requires {@code jwt.audience}. The signature check is remembered either way.
     */
    private static void checkAudience(JWTClaimsSet claims, String required) {
        if (required == null) return;
        List<String> aud = claims.getAudience();
        if (aud == null || !aud.contains(required)) throw new AuthException("token audience not accepted");
    }

    private void remember(
            String token,
            JWT jwt,
            JWTClaimsSet claims,
            DefaultJWTProcessor<SecurityContext> processor,
            Principal principal,
            boolean viaJwks) {
        if (!viaJwks) {
            verified.put(token, new Verified(claims, processor, principal, null, List.of()));
            return;
        }
        // a JWKS token is remembered only with its key id, so that a later hit can ask whether the key is still there
        String kid = jwt.getHeader() instanceof JWSHeader h ? h.getKeyID() : null;
        if (kid == null) return;
        List<JWK> keys = publishedKeys(kid);
        if (keys != null && !keys.isEmpty()) verified.put(token, new Verified(claims, processor, principal, kid, keys));
    }

    /** Whether a remembered token's key is still published as it was (always, for an HS256 token). */
    private boolean stillPublished(Verified known) {
        return known.kid() == null || known.keys().equals(publishedKeys(known.kid()));
    }

    /** The keys of the JWKS with this id, from Nimbus' cached set (fetched only when it has none); null if unknown. */
    private List<JWK> publishedKeys(String kid) {
        try {
            return jwksKeys.get(
                    new JWKSelector(new JWKMatcher.Builder().keyID(kid).build()), null);
        } catch (KeySourceException e) {
            return null;
        }
    }

    private static DefaultJWTProcessor<SecurityContext> processor(
            JWSKeySelector<SecurityContext> keys, JwtSettings settings, Clock clock) {
        var processor = new DefaultJWTProcessor<SecurityContext>();
        processor.setJWSTypeVerifier(TYPES);
        processor.setJWSKeySelector(keys);
        processor.setJWTClaimsSetVerifier(claimsVerifier(settings, clock));
        return processor;
    }

    private static DefaultJWTClaimsVerifier<SecurityContext> claimsVerifier(JwtSettings settings, Clock clock) {
        Set<String> required = new LinkedHashSet<>(List.of("sub", "exp"));
        JWTClaimsSet.Builder exact = new JWTClaimsSet.Builder();
        if (settings.issuer() != null) {
            exact.issuer(settings.issuer());
            required.add("iss");
        }
        // the audience is checked per route (checkAudience), so that /mcp may require its own
        var verifier = new DefaultJWTClaimsVerifier<SecurityContext>(null, exact.build(), required, null) {
            @Override
            protected Date currentTime() {
                return Date.from(clock.instant());
            }
        };
        verifier.setMaxClockSkew(wholeSecondsUp(settings.clockSkew()));
        return verifier;
    }

    private static int wholeSecondsUp(Duration d) {
        long seconds = d.toSeconds() + (d.toNanosPart() > 0 ? 1 : 0);
        return (int) Math.min(seconds, Integer.MAX_VALUE);
    }

    private static String reason(BadJOSEException e) {
        if (e instanceof ExpiredJWTException) return "token expired";
        String m = e.getMessage() == null ? "" : e.getMessage();
        if (m.startsWith("JWT before use time")) return "token not valid yet (nbf is in the future)";
        if (m.startsWith("JWT aud claim rejected") || m.startsWith("JWT missing required aud claim")) {
            return "token audience not accepted";
        }
        if (m.startsWith("JWT iss claim")) return "token issuer not accepted";
        if (m.startsWith("JWT missing required claims:")) {
            return "token lacks required claims "
                    + m.substring("JWT missing required claims:".length()).strip();
        }
        if (m.startsWith("Unsecured")) return "unsigned tokens (alg none) are not accepted";
        if (m.startsWith("Encrypted JWT")) return "encrypted tokens are not accepted";
        if (m.contains("Invalid signature")) return "invalid token signature";
        if (m.contains("Another algorithm expected")) return "token algorithm or signing key not accepted";
        if (m.contains("typ")) return "token type (typ) not accepted";
        return "invalid token";
    }

    private static String unverifiable(JOSEException e) {
        if (e instanceof RateLimitReachedException) {
            // the key set was just fetched and still has no key for this token
            return "token signing key not found: unknown key id, or the key set cannot be fetched right now";
        }
        if (e instanceof JWKSetUnavailableException) {
            // rate limited to two per JWKS fetch interval, so this cannot flood the log
            log.warn("JWKS endpoint unavailable: {}", e.getMessage());
            return "token could not be verified: the identity provider's keys are unavailable, try again later";
        }
        return "token could not be verified";
    }

    private Principal principal(JWTClaimsSet claims, String tenantClaim) {
        try {
            List<String> roles = stringList(claims, "roles");
            if (roles.isEmpty()) {
                String single = claims.getStringClaim("role");
                roles = single == null ? List.of(DEFAULT_ROLE) : List.of(single);
            }
            Set<String> permissions = new LinkedHashSet<>();
            for (String role : roles) permissions.addAll(rolePermissions.getOrDefault(role, Set.of()));
            List<String> classes = new ArrayList<>(stringList(claims, "classes"));
            classes.addAll(stringList(claims, "groups"));
            return new Principal(
                    claims.getSubject(),
                    claims.getStringClaim(tenantClaim),
                    claims.getStringClaim("name"),
                    claims.getStringClaim("email"),
                    new LinkedHashSet<>(roles),
                    permissions,
                    classes);
        } catch (ParseException | IllegalArgumentException e) {
            throw new AuthException("token claims have the wrong types");
        }
    }

    private static List<String> stringList(JWTClaimsSet claims, String name) throws ParseException {
        Object v = claims.getClaim(name);
        if (v == null) return List.of();
        if (v instanceof String s) return List.of(s);
        List<String> list = claims.getStringListClaim(name);
        return list == null ? List.of() : list;
    }
}
