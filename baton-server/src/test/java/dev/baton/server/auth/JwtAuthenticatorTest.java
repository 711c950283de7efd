package dev.baton.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.config.ConfigException;
import dev.baton.testkit.time.SettableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JwtAuthenticatorTest {

    static final String SECRET = "0123456789abcdef0123456789abcdef-secret";
    final JwtAuthenticator auth = new JwtAuthenticator(
            JwtSecret.of(SECRET),
            Map.of(
                    "student",
                    Set.of("tasks:read:self"),
                    "admin",
                    Set.of("admin:audit"),
                    "user",
                    Set.of("sessions:read:self")));
    final TokenMinter minter = new TokenMinter(JwtSecret.of(SECRET));

    @Test
    void a_minted_token_becomes_a_principal_with_the_union_of_its_roles_permissions() {
        String token = minter.mint(
                new TokenMinter.Claims(
                        "alice", "Alice", "a@example.org", List.of("student", "admin"), "acme", List.of("physics-101")),
                Instant.now(),
                Duration.ofMinutes(5));
        Principal p = auth.authenticate("Bearer " + token);
        assertThat(p.userId()).isEqualTo("alice");
        assertThat(p.tenantId()).isEqualTo("acme");
        assertThat(p.displayName()).isEqualTo("Alice");
        assertThat(p.permissions()).containsExactlyInAnyOrder("tasks:read:self", "admin:audit");
        assertThat(p.classes()).containsExactly("physics-101");
    }

    @Test
    void a_token_without_roles_gets_the_user_role() {
        Principal p = auth.authenticate(
                "bearer " + minter.mint(TokenMinter.Claims.user("bob"), Instant.now(), Duration.ofMinutes(5)));
        assertThat(p.roles()).containsExactly("user");
        assertThat(p.permissions()).containsExactly("sessions:read:self");
        assertThat(p.tenantId()).isEqualTo("default");
    }

    @Test
    void hs384_with_the_right_secret_is_still_refused_because_the_algorithm_is_pinned() throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader(JWSAlgorithm.HS384),
                new JWTClaimsSet.Builder()
                        .subject("alice")
                        .expirationTime(Date.from(Instant.now().plusSeconds(60)))
                        .build());
        jwt.sign(new MACSigner((SECRET + SECRET).getBytes()));
        assertThatThrownBy(() -> auth.authenticate("Bearer " + jwt.serialize())).isInstanceOf(AuthException.class);
    }

    @Test
    void a_token_without_a_subject_is_refused() throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader(JWSAlgorithm.HS256),
                new JWTClaimsSet.Builder()
                        .expirationTime(Date.from(Instant.now().plusSeconds(60)))
                        .build());
        jwt.sign(new MACSigner(SECRET.getBytes()));
        assertThatThrownBy(() -> auth.authenticate("Bearer " + jwt.serialize())).isInstanceOf(AuthException.class);
    }

    @Test
    void other_schemes_and_empty_headers_are_refused() {
        assertThatThrownBy(() -> auth.authenticate(null)).hasMessageContaining("missing");
        assertThatThrownBy(() -> auth.authenticate("Basic YWxpY2U6cHc=")).isInstanceOf(AuthException.class);
        assertThatThrownBy(() -> auth.authenticate("Bearer ")).isInstanceOf(AuthException.class);
    }

    @Test
    void hs256_expiry_and_nbf_allow_30_seconds_of_clock_skew_by_default() throws Exception {
        Instant now = Instant.parse("2026-01-01T12:00:00Z");
        JwtAuthenticator fixed = JwtAuthenticator.create(
                JwtSettings.hs256(JwtSecret.of(SECRET)), Map.of(), Clock.fixed(now, ZoneOffset.UTC));

        assertThat(fixed.authenticate("Bearer " + hs256(claims(now).expirationTime(Date.from(now.minusSeconds(29)))))
                        .userId())
                .isEqualTo("alice");
        assertThatThrownBy(() -> fixed.authenticate(
                        "Bearer " + hs256(claims(now).expirationTime(Date.from(now.minusSeconds(31))))))
                .hasMessage("token expired");
        assertThatThrownBy(() -> fixed.authenticate(
                        "Bearer " + hs256(claims(now).notBeforeTime(Date.from(now.plusSeconds(31))))))
                .hasMessageContaining("not valid yet");
    }

    @Test
    void a_token_accepted_before_is_refused_once_it_expires_or_when_another_one_is_tampered() throws Exception {
        Instant now = Instant.parse("2026-01-01T12:00:00Z");
        SettableClock clock = new SettableClock(now);
        JwtAuthenticator settable = JwtAuthenticator.create(JwtSettings.hs256(JwtSecret.of(SECRET)), Map.of(), clock);
        String token = hs256(claims(now).expirationTime(Date.from(now.plusSeconds(60))));

        assertThat(settable.authenticate("Bearer " + token).userId()).isEqualTo("alice");
        assertThat(settable.authenticate("Bearer " + token).userId()).isEqualTo("alice");
        // the signature is not checked again, but the expiry is, on every request
        clock.advance(Duration.ofSeconds(91));
        assertThatThrownBy(() -> settable.authenticate("Bearer " + token)).hasMessage("token expired");

        String[] parts = token.split("\\.");
        String tampered = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
        clock.set(now);
        assertThatThrownBy(() -> settable.authenticate("Bearer " + tampered)).hasMessage("invalid token signature");
    }

    @Test
    void a_configured_issuer_and_audience_apply_to_hs256_tokens_too() throws Exception {
        Instant now = Instant.now();
        JwtAuthenticator strict = JwtAuthenticator.create(
                new JwtSettings(JwtSecret.of(SECRET), null, "https://issuer.example/", "baton", null, null, null),
                Map.of());

        assertThatThrownBy(
                        () -> strict.authenticate("Bearer " + hs256(claims(now).audience("baton"))))
                .hasMessageContaining("[iss]");
        assertThatThrownBy(() -> strict.authenticate("Bearer "
                        + hs256(claims(now).issuer("https://issuer.example/").audience("other"))))
                .hasMessageContaining("audience not accepted");
        assertThat(strict.authenticate("Bearer "
                                + hs256(claims(now)
                                        .issuer("https://issuer.example/")
                                        .audience("baton")))
                        .userId())
                .isEqualTo("alice");
    }

    @Test
    void mcp_tokens_must_name_the_mcp_resource_in_place_of_the_apis_audience() throws Exception {
        Instant now = Instant.now();
        String resource = "https://baton.example/mcp";
        JwtAuthenticator both = JwtAuthenticator.create(
                new JwtSettings(
                        JwtSecret.of(SECRET), null, null, "baton", null, null, null, java.net.URI.create(resource)),
                Map.of());
        String forMcp = "Bearer " + hs256(claims(now).audience(resource));
        String forApi = "Bearer " + hs256(claims(now).audience("baton"));

        assertThat(both.authenticateForMcp(forMcp).userId()).isEqualTo("alice");
        assertThatThrownBy(() -> both.authenticateForMcp(forApi)).hasMessage("token audience not accepted");
        // and the other way round, also once the token's signature check is remembered
        assertThat(both.authenticate(forApi).userId()).isEqualTo("alice");
        assertThatThrownBy(() -> both.authenticate(forMcp)).hasMessage("token audience not accepted");
        assertThatThrownBy(() -> both.authenticateForMcp("Bearer " + hs256(claims(now))))
                .hasMessage("token audience not accepted");
    }

    @Test
    void without_an_mcp_resource_mcp_tokens_are_checked_against_the_apis_audience() throws Exception {
        Instant now = Instant.now();
        JwtAuthenticator apiOnly = JwtAuthenticator.create(
                new JwtSettings(JwtSecret.of(SECRET), null, null, "baton", null, null, null), Map.of());

        assertThat(apiOnly.authenticateForMcp("Bearer " + hs256(claims(now).audience("baton")))
                        .userId())
                .isEqualTo("alice");
        assertThatThrownBy(() ->
                        apiOnly.authenticateForMcp("Bearer " + hs256(claims(now).audience("other"))))
                .hasMessage("token audience not accepted");
        // neither configured: no audience is required anywhere
        assertThat(auth.authenticateForMcp("Bearer " + hs256(claims(now))).userId())
                .isEqualTo("alice");
    }

    static JWTClaimsSet.Builder claims(Instant now) {
        return new JWTClaimsSet.Builder().subject("alice").expirationTime(Date.from(now.plusSeconds(60)));
    }

    static String hs256(JWTClaimsSet.Builder claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
        jwt.sign(new MACSigner(SECRET.getBytes()));
        return jwt.serialize();
    }

    @Test
    void a_short_secret_is_a_configuration_error() {
        assertThatThrownBy(() -> JwtSecret.of("too-short"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("32");
    }
}
