package dev.baton.server.auth;

import static dev.baton.server.auth.FakeIdentityProvider.claims;
import static dev.baton.server.auth.FakeIdentityProvider.sign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.baton.core.auth.Principal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The attacks of RFC 8725 (JWT Best Current Practices) and the claim checks, against an authenticator that fetches a
 * real JWK set over HTTP. Time is a fixed clock, so skew is tested to the second without waiting.
 */
class JwtAttacksIT {

    static final String ISSUER = "https://idp.example.org/";
    static final String AUDIENCE = "baton";
    static final String SECRET = "0123456789abcdef0123456789abcdef-secret";
    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    static final Map<String, Set<String>> ROLES = Map.of("student", Set.of("tasks:read:self"));
    static final RSAKey RSA = FakeIdentityProvider.rsaKey("rsa-1");
    static final ECKey EC = FakeIdentityProvider.ecKey("ec-1");
    static final RSAKey ATTACKER = FakeIdentityProvider.rsaKey("attacker-1");

    FakeIdentityProvider idp;
    FakeIdentityProvider attacker;
    JwtAuthenticator auth;

    @BeforeEach
    void start() {
        idp = FakeIdentityProvider.start();
        idp.publish(RSA, EC);
        attacker = FakeIdentityProvider.start();
        attacker.publish(ATTACKER);
        auth = authenticator(null, idp.jwksUrl(), Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        idp.close();
        attacker.close();
    }

    static JwtAuthenticator authenticator(String secret, URI jwksUrl, Duration timeout) {
        var settings = new JwtSettings(
                secret == null ? null : JwtSecret.of(secret), jwksUrl, ISSUER, AUDIENCE, null, "org", timeout);
        return JwtAuthenticator.create(settings, ROLES, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    static JWTClaimsSet.Builder valid(String subject) {
        return claims(subject, NOW).issuer(ISSUER).audience(AUDIENCE);
    }

    Principal accept(String token) {
        return auth.authenticate("Bearer " + token);
    }

    void refuse(String token, String reason) {
        assertThatThrownBy(() -> accept(token))
                .isInstanceOf(AuthException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void rs256_and_es256_tokens_signed_with_published_keys_are_accepted_with_the_configured_tenant_claim() {
        Principal viaRsa = accept(sign(RSA, valid("alice").claim("org", "acme").build()));
        Principal viaEc = accept(sign(EC, valid("bob").claim("org", "globex").build()));

        assertThat(viaRsa.userId()).isEqualTo("alice");
        assertThat(viaRsa.tenantId()).isEqualTo("acme");
        assertThat(viaRsa.permissions()).containsExactly("tasks:read:self");
        assertThat(viaEc.userId()).isEqualTo("bob");
        assertThat(viaEc.tenantId()).isEqualTo("globex");
        assertThat(idp.requests()).as("one fetch, then the cache").isEqualTo(1);
    }

    @Test
    void alg_none_is_refused() {
        refuse(new PlainJWT(valid("alice").build()).serialize(), "alg none");
        // and with a trailing signature, as some libraries once accepted
        String header = Base64URL.encode("{\"alg\":\"none\",\"kid\":\"rsa-1\"}").toString();
        String body = valid("alice").build().toPayload().toBase64URL().toString();
        assertThatThrownBy(() -> accept(header + "." + body + ".c2ln")).isInstanceOf(AuthException.class);
    }

    @Test
    void an_hs256_token_signed_with_the_rsa_public_key_as_hmac_secret_is_refused() throws Exception {
        byte[] der = RSA.toRSAPublicKey().getEncoded();
        String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END PUBLIC KEY-----\n";
        List<byte[]> secrets = List.of(
                der,
                pem.getBytes(StandardCharsets.US_ASCII),
                RSA.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8));
        JwtAuthenticator withSecretToo = authenticator(SECRET, idp.jwksUrl(), Duration.ofSeconds(2));

        for (byte[] secret : secrets) {
            for (String kid : new String[] {"rsa-1", null}) {
                String forged = hs256(
                        secret,
                        kid,
                        valid("mallory").claim("roles", List.of("admin")).build());
                refuse(forged, "algorithm or signing key not accepted");
                assertThatThrownBy(() -> withSecretToo.authenticate("Bearer " + forged))
                        .as("with a shared secret configured too, HS256 is checked against that secret only")
                        .isInstanceOf(AuthException.class)
                        .hasMessageContaining(kid == null ? "invalid token signature" : "not accepted");
            }
        }
        assertThat(idp.requests())
                .as("an HS256 token never even looks at the JWK set")
                .isZero();
    }

    @Test
    void an_unknown_kid_is_refused_and_does_not_hammer_the_jwks_endpoint() {
        accept(sign(RSA, valid("alice").build()));
        assertThat(idp.requests()).isEqualTo(1);

        for (int i = 0; i < 25; i++) {
            RSAKey unknown = new RSAKey.Builder(ATTACKER).keyID("made-up-" + i).build();
            assertThatThrownBy(() -> accept(sign(unknown, valid("mallory").build())))
                    .isInstanceOf(AuthException.class);
        }

        assertThat(idp.requests())
                .as("one forced refresh is allowed per rate-limit interval, not one per token")
                .isLessThanOrEqualTo(2);
        assertThat(accept(sign(EC, valid("bob").build())).userId()).isEqualTo("bob");
    }

    @Test
    void jku_x5u_and_embedded_jwk_headers_are_ignored_and_the_urls_never_fetched() {
        URI jku = attacker.url("/jwks.json");
        URI x5u = attacker.url("/cert.pem");
        JWTClaimsSet admin = valid("mallory").claim("roles", List.of("admin")).build();

        String ownKid = sign(ATTACKER, admin, h -> h.jwkURL(jku).x509CertURL(x5u));
        String borrowedKid = sign(ATTACKER, admin, h -> h.keyID("rsa-1").jwkURL(jku));
        String embeddedKey = sign(ATTACKER, admin, h -> h.jwk(ATTACKER.toPublicJWK()));

        refuse(ownKid, "signing key");
        refuse(borrowedKid, "invalid token signature");
        refuse(embeddedKey, "signing key");
        assertThat(attacker.requests())
                .as("the attacker's server was never asked")
                .isZero();
    }

    @Test
    void an_es256_token_with_an_all_zero_signature_is_refused() {
        JWSHeader header =
                new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec-1").build();
        String unsigned = header.toBase64URL() + "."
                + valid("mallory").build().toPayload().toBase64URL();

        refuse(unsigned + "." + Base64URL.encode(new byte[64]), "invalid token signature");
        // the DER form of r = s = 0, for verifiers that accept it
        refuse(
                unsigned + "." + Base64URL.encode(new byte[] {0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00}),
                "invalid token signature");
    }

    @Test
    void a_token_from_another_issuer_is_refused() {
        refuse(sign(RSA, valid("alice").issuer("https://evil.example.org/").build()), "issuer not accepted");
        refuse(sign(RSA, valid("alice").issuer(null).build()), "[iss]");
    }

    @Test
    void a_token_for_another_audience_or_none_is_refused() {
        refuse(sign(RSA, valid("alice").audience("another-api").build()), "audience not accepted");
        refuse(sign(RSA, valid("alice").audience((String) null).build()), "audience not accepted");
        assertThat(accept(sign(
                                RSA,
                                valid("alice")
                                        .audience(List.of("another-api", AUDIENCE))
                                        .build()))
                        .userId())
                .as("aud may list several audiences")
                .isEqualTo("alice");
    }

    @Test
    void nbf_is_honoured_with_the_30_second_skew() {
        refuse(sign(RSA, valid("alice").notBeforeTime(at(31)).build()), "not valid yet");
        assertThat(accept(sign(RSA, valid("alice").notBeforeTime(at(29)).build())))
                .isNotNull();
    }

    @Test
    void an_expired_token_is_accepted_within_the_30_second_skew_and_refused_beyond_it() {
        assertThat(accept(sign(RSA, valid("alice").expirationTime(at(-29)).build())))
                .isNotNull();
        refuse(sign(RSA, valid("alice").expirationTime(at(-31)).build()), "token expired");
    }

    @Test
    void sub_and_exp_are_required() {
        refuse(sign(RSA, valid("alice").subject(null).build()), "[sub]");
        refuse(sign(RSA, valid("alice").expirationTime(null).build()), "[exp]");
    }

    @Test
    void a_jwks_endpoint_that_refuses_connections_is_a_401_at_once() throws Exception {
        int freePort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            freePort = socket.getLocalPort();
        }
        URI nowhere = URI.create("http://127.0.0.1:" + freePort + "/jwks.json");
        JwtAuthenticator down = authenticator(null, nowhere, Duration.ofSeconds(10));

        assertTimeoutPreemptively(
                Duration.ofSeconds(3),
                () -> assertThatThrownBy(() -> down.authenticate(
                                "Bearer " + sign(RSA, valid("alice").build())))
                        .isInstanceOf(AuthException.class)
                        .hasMessageContaining("keys are unavailable"));
    }

    @Test
    void a_jwks_endpoint_that_never_answers_is_a_401_once_its_timeout_passed() {
        idp.hangRequests();
        JwtAuthenticator hanging = authenticator(null, idp.jwksUrl(), Duration.ofMillis(300));

        assertTimeoutPreemptively(
                Duration.ofSeconds(5),
                () -> assertThatThrownBy(() -> hanging.authenticate(
                                "Bearer " + sign(RSA, valid("alice").build())))
                        .isInstanceOf(AuthException.class)
                        .hasMessageContaining("keys are unavailable"));
        assertThat(idp.requests())
                .as("the fetch (and its one retry) reached the endpoint")
                .isPositive();
    }

    static Date at(long secondsFromNow) {
        return Date.from(NOW.plusSeconds(secondsFromNow));
    }

    static String hs256(byte[] secret, String kid, JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).build(), claims);
        jwt.sign(new MACSigner(secret));
        return jwt.serialize();
    }
}
