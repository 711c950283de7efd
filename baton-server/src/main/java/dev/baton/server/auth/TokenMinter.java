package dev.baton.server.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/** Mints HS256 development tokens (`baton token`) and tokens for tests. */
public final class TokenMinter {

    private final JwtSecret secret;

    public TokenMinter(JwtSecret secret) {
        this.secret = secret;
    }

    /** What goes into a token. Null name/email/tenant are left out. */
    public record Claims(
            String subject, String name, String email, List<String> roles, String tenant, List<String> classes) {
        public Claims {
            roles = List.copyOf(roles == null ? List.of() : roles);
            classes = List.copyOf(classes == null ? List.of() : classes);
        }

        public static Claims user(String subject, String... roles) {
            return new Claims(subject, null, null, List.of(roles), null, List.of());
        }
    }

    public String mint(Claims c, Instant issuedAt, Duration lifetime) {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder()
                .subject(c.subject())
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(issuedAt.plus(lifetime)))
                .claim("roles", c.roles());
        if (c.name() != null) b.claim("name", c.name());
        if (c.email() != null) b.claim("email", c.email());
        if (c.tenant() != null) b.claim("tenant", c.tenant());
        if (!c.classes().isEmpty()) b.claim("classes", c.classes());
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), b.build());
        try {
            jwt.sign(new MACSigner(secret.bytes()));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign token", e);
        }
        return jwt.serialize();
    }
}
