package dev.baton.server.it;

import static dev.baton.server.auth.FakeIdentityProvider.claims;
import static dev.baton.server.auth.FakeIdentityProvider.sign;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.auth.FakeIdentityProvider;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server that verifies RS256 and ES256 tokens against a JWK set published over HTTP by a test identity
 * provider, next to HS256 tokens signed with its shared secret.
 */
class JwtJwksServerIT {

    static final String ISSUER = "https://idp.example.org/";
    static final String AUDIENCE = "baton";
    static final RSAKey RSA = FakeIdentityProvider.rsaKey("rsa-1");
    static final ECKey EC = FakeIdentityProvider.ecKey("ec-1");
    static final Map<String, Set<String>> ROLES = Map.of(
            "student", Set.of("sessions:read:self", "sessions:write:self"),
            "admin", Set.of("sessions:read:self", "admin:usage"));

    @TempDir
    static Path dir;

    static FakeIdentityProvider idp;
    static TestServer t;

    @BeforeAll
    static void start() {
        idp = FakeIdentityProvider.start();
        idp.publish(RSA, EC);
        t = server(dir, idp);
    }

    @AfterAll
    static void stop() {
        t.close();
        idp.close();
    }

    /** The JWKS URL, audience and tenant claim come from baton.yaml's jwt section, the issuer from the environment. */
    static TestServer server(Path dir, FakeIdentityProvider idp) {
        ObjectNode raw = JsonNodeFactory.instance.objectNode();
        raw.putObject("jwt")
                .put("jwksUrl", idp.jwksUrl().toString())
                .put("audience", AUDIENCE)
                .put("tenantClaim", "org")
                .put("clockSkew", "30s");
        BatonConfig config = new BatonConfig(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of("BATON_JWT_ISSUER", ISSUER));
        return TestServer.start(
                config, LlmSimulator.start(SimulatorScript.replyingWith("hello")), true, Clock.systemUTC());
    }

    static JWTClaimsSet.Builder valid(String subject) {
        return claims(subject, Instant.now()).issuer(ISSUER).audience(AUDIENCE);
    }

    static void assert401(ApiClient.Response r, String reason) {
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.body().path("error").path("code").asText()).isEqualTo("unauthorized");
        assertThat(r.body().path("error").path("message").asText()).contains(reason);
    }

    @Test
    void an_rs256_token_from_the_identity_provider_gets_200() {
        var r = t.api.get("/v1/sessions", sign(RSA, valid("alice").build()));

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("sessions").isArray()).isTrue();
    }

    @Test
    void an_es256_token_from_the_identity_provider_gets_200() {
        assertThat(t.api.get("/v1/sessions", sign(EC, valid("bob").build())).status())
                .isEqualTo(200);
    }

    @Test
    void a_jwks_token_names_its_tenant_in_the_configured_claim() {
        String token = sign(
                RSA,
                valid("carol")
                        .claim("roles", List.of("admin"))
                        .claim("org", "acme")
                        .claim("tenant", "not-this-one")
                        .build());

        var usage = t.api.get("/v1/admin/usage", token);

        assertThat(usage.status()).isEqualTo(200);
        assertThat(usage.body().path("tenant").asText()).isEqualTo("acme");
    }

    @Test
    void an_hs256_token_keeps_its_tenant_claim_and_one_signed_with_the_rsa_public_key_is_401() throws Exception {
        JWTClaimsSet claims = valid("dave")
                .claim("roles", List.of("admin"))
                .claim("tenant", "initech")
                .claim("org", "not-this-one")
                .build();

        var usage = t.api.get("/v1/admin/usage", hs256(TestServer.SECRET.getBytes(), claims));
        assertThat(usage.status()).isEqualTo(200);
        assertThat(usage.body().path("tenant").asText()).isEqualTo("initech");

        String forged = hs256(RSA.toRSAPublicKey().getEncoded(), claims);
        assert401(t.api.get("/v1/admin/usage", forged), "invalid token signature");
    }

    @Test
    void a_token_for_another_audience_is_401() {
        assert401(
                t.api.get(
                        "/v1/sessions",
                        sign(RSA, valid("erin").audience("another-api").build())),
                "audience not accepted");
    }

    @Test
    void a_rotated_key_is_fetched_when_first_seen_and_the_removed_one_is_refused(@TempDir Path own) {
        RSAKey before = FakeIdentityProvider.rsaKey("2024-key");
        RSAKey after = FakeIdentityProvider.rsaKey("2025-key");
        try (var rotating = FakeIdentityProvider.start()) {
            rotating.publish(before);
            try (var server = server(own, rotating)) {
                assertThat(server.api
                                .get("/v1/sessions", sign(before, valid("frank").build()))
                                .status())
                        .isEqualTo(200);
                assertThat(rotating.requests()).isEqualTo(1);

                rotating.publish(after);

                assertThat(server.api
                                .get("/v1/sessions", sign(after, valid("frank").build()))
                                .status())
                        .isEqualTo(200);
                assertThat(rotating.requests())
                        .as("the new kid made the server fetch the set again")
                        .isEqualTo(2);

                assertThat(server.api
                                .get("/v1/sessions", sign(after, valid("frank").build()))
                                .status())
                        .isEqualTo(200);
                assert401(
                        server.api.get(
                                "/v1/sessions", sign(before, valid("frank").build())),
                        "signing key");
                assert401(
                        server.api.get(
                                "/v1/sessions", sign(before, valid("frank").build())),
                        "signing key");
                assertThat(rotating.requests())
                        .as("a kid that is gone is not fetched again and again")
                        .isEqualTo(2);
            }
        }
    }

    static String hs256(byte[] secret, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        jwt.sign(new MACSigner(secret));
        return jwt.serialize();
    }
}
