package dev.baton.server.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.baton.core.auth.Principal;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verifies bearer tokens: HS256 only (the algorithm is pinned, so "none" and RS/ES confusion are refused),
 * {@code sub} and {@code exp} required, expiry checked with Nimbus' default clock skew.
 */
public final class JwtAuthenticator {

    private static final String DEFAULT_ROLE = "user";

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final Map<String, Set<String>> rolePermissions;

    public JwtAuthenticator(JwtSecret secret, Map<String, Set<String>> rolePermissions) {
        this.rolePermissions = Map.copyOf(rolePermissions);
        processor.setJWSKeySelector(
                new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableSecret<>(secret.bytes())));
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(null, Set.of("sub", "exp")));
    }

    /** @param authorization the raw Authorization header, may be null */
    public Principal authenticate(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw new AuthException("missing bearer token");
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new AuthException("Authorization must be 'Bearer <token>'");
        }
        String token = authorization.substring(7).trim();
        JWTClaimsSet claims;
        try {
            claims = processor.process(token, null);
        } catch (ParseException e) {
            throw new AuthException("malformed token");
        } catch (BadJOSEException e) {
            throw new AuthException(reason(e));
        } catch (JOSEException e) {
            throw new AuthException("token could not be verified");
        }
        return principal(claims);
    }

    private static String reason(BadJOSEException e) {
        String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(java.util.Locale.ROOT);
        if (m.contains("expired")) return "token expired";
        if (m.contains("missing") || m.contains("required")) return "token lacks required claims (sub, exp)";
        return "invalid token";
    }

    private Principal principal(JWTClaimsSet claims) {
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
                    claims.getStringClaim("tenant"),
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
