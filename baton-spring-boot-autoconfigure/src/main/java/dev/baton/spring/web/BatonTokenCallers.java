package dev.baton.spring.web;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.core.auth.Principal;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * For an app without Spring Security: the caller from Baton's own HS256 bearer tokens, read as {@code baton serve}
 * reads them ({@code sub}; {@code tenant}; {@code name}, {@code email}; {@code roles} or {@code role}, default
 * {@code user}, each granting baton.yaml's permissions; {@code classes} and {@code groups}). Only HS256 with the
 * configured secret ({@code baton.jwt.secret} or {@code BATON_JWT_SECRET}, at least 32 bytes) is accepted, and an
 * expired token is refused; JWKS and issuer/audience checks are Spring Security's job in an app that has it.
 */
public final class BatonTokenCallers implements CallerResolver {
    private static final String DEFAULT_ROLE = "user";

    private final MACVerifier verifier;
    private final Map<String, Set<String>> rolePermissions;
    private final Clock clock;

    public BatonTokenCallers(String secret, Map<String, Set<String>> rolePermissions, Clock clock) {
        if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < 32)
            throw new IllegalArgumentException("baton.jwt.secret (or BATON_JWT_SECRET) must be set, at least 32 bytes,"
                    + " for Baton's HTTP API in an app without Spring Security");
        try {
            this.verifier = new MACVerifier(secret.getBytes(StandardCharsets.UTF_8));
        } catch (JOSEException e) {
            throw new IllegalArgumentException("baton.jwt.secret cannot verify HS256 tokens: " + e.getMessage(), e);
        }
        this.rolePermissions = Map.copyOf(rolePermissions);
        this.clock = clock;
    }

    @Override
    public Principal caller(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7))
            throw new UnauthenticatedException("missing bearer token");
        JWTClaimsSet claims;
        try {
            SignedJWT jwt = SignedJWT.parse(header.substring(7).strip());
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()))
                throw new UnauthenticatedException("token algorithm or signing key not accepted");
            if (!jwt.verify(verifier)) throw new UnauthenticatedException("invalid token signature");
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | JOSEException e) {
            throw new UnauthenticatedException("invalid token");
        }
        Date expires = claims.getExpirationTime();
        if (expires != null && !expires.toInstant().isAfter(clock.instant()))
            throw new UnauthenticatedException("token expired");
        if (claims.getSubject() == null || claims.getSubject().isBlank())
            throw new UnauthenticatedException("token lacks required claims [sub]");
        return principal(claims);
    }

    private Principal principal(JWTClaimsSet claims) {
        try {
            List<String> roles = strings(claims, "roles");
            if (roles.isEmpty()) {
                String single = claims.getStringClaim("role");
                roles = List.of(single == null ? DEFAULT_ROLE : single);
            }
            Set<String> permissions = new LinkedHashSet<>();
            for (String role : roles) permissions.addAll(rolePermissions.getOrDefault(role, Set.of()));
            List<String> classes = new ArrayList<>(strings(claims, "classes"));
            classes.addAll(strings(claims, "groups"));
            return new Principal(
                    claims.getSubject(),
                    claims.getStringClaim("tenant"),
                    claims.getStringClaim("name"),
                    claims.getStringClaim("email"),
                    new LinkedHashSet<>(roles),
                    permissions,
                    classes);
        } catch (ParseException | IllegalArgumentException e) {
            throw new UnauthenticatedException("token claims have the wrong types");
        }
    }

    private static List<String> strings(JWTClaimsSet claims, String name) throws ParseException {
        Object v = claims.getClaim(name);
        if (v == null) return List.of();
        if (v instanceof String s) return List.of(s);
        List<String> list = claims.getStringListClaim(name);
        return list == null ? List.of() : list;
    }
}
