package dev.baton.spring.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.core.auth.Principal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class BatonTokenCallersTest {
    private static final String SECRET = "a-test-secret-of-at-least-32-bytes!!";
    private final BatonTokenCallers callers = new BatonTokenCallers(
            SECRET, Map.of("user", Set.of("sessions:write:self"), "admin", Set.of("admin:audit")), Clock.systemUTC());

    private static String token(String secret, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        return jwt.serialize();
    }

    private static MockHttpServletRequest bearer(String token) {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.addHeader("Authorization", "Bearer " + token);
        return request;
    }

    @Test
    void a_signed_token_gives_the_caller_with_its_roles_grants() throws Exception {
        String token = token(
                SECRET,
                new JWTClaimsSet.Builder()
                        .subject("alice")
                        .claim("tenant", "acme")
                        .claim("roles", List.of("user", "admin"))
                        .expirationTime(Date.from(Instant.now().plusSeconds(60)))
                        .build());

        Principal caller = callers.caller(bearer(token));

        assertThat(caller.userId()).isEqualTo("alice");
        assertThat(caller.tenantId()).isEqualTo("acme");
        assertThat(caller.permissions()).containsExactlyInAnyOrder("sessions:write:self", "admin:audit");
    }

    @Test
    void a_token_without_roles_is_a_user() throws Exception {
        String token = token(SECRET, new JWTClaimsSet.Builder().subject("bob").build());

        assertThat(callers.caller(bearer(token)).permissions()).containsExactly("sessions:write:self");
    }

    @Test
    void missing_forged_and_expired_tokens_are_refused() throws Exception {
        assertThatThrownBy(() -> callers.caller(new MockHttpServletRequest()))
                .isInstanceOf(UnauthenticatedException.class)
                .hasMessage("missing bearer token");
        String forged = token(
                "another-secret-of-at-least-32-bytes!!",
                new JWTClaimsSet.Builder().subject("eve").build());
        assertThatThrownBy(() -> callers.caller(bearer(forged))).hasMessage("invalid token signature");
        String expired = token(
                SECRET,
                new JWTClaimsSet.Builder()
                        .subject("alice")
                        .expirationTime(Date.from(Instant.now().minusSeconds(5)))
                        .build());
        assertThatThrownBy(() -> callers.caller(bearer(expired))).hasMessage("token expired");
    }
}
