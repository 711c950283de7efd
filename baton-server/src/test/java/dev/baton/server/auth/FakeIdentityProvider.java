package dev.baton.server.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * An identity provider for tests: key pairs, tokens signed with them, and a real HTTP server (the JDK's, on a free
 * loopback port) that publishes the public keys as a JWK set and counts every request it gets, on any path.
 */
public final class FakeIdentityProvider implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger requests = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile JWKSet published = new JWKSet();
    private volatile boolean hanging;

    private FakeIdentityProvider(HttpServer server) {
        this.server = server;
    }

    /** Starts serving an empty key set. */
    public static FakeIdentityProvider start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeIdentityProvider idp = new FakeIdentityProvider(server);
            server.createContext("/", exchange -> {
                idp.requests.incrementAndGet();
                try (exchange) {
                    if (idp.hanging) idp.released.await();
                    byte[] body = idp.published.toString(true).getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "application/jwk-set+json");
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            // one thread per request, so that a hanging request does not hold up the others
            server.setExecutor(idp.executor);
            server.start();
            return idp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the key set is published. */
    public URI jwksUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/.well-known/jwks.json");
    }

    /** Another URL on this server, e.g. for a {@code jku} or {@code x5u} header. */
    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** How many requests this server got so far. */
    public int requests() {
        return requests.get();
    }

    /** From now on, the key set holds the public halves of exactly these keys. */
    public void publish(JWK... keys) {
        published = new JWKSet(Arrays.stream(keys).map(JWK::toPublicJWK).toList());
    }

    /** From now on, requests are accepted but never answered (until {@link #close()}). */
    public void hangRequests() {
        hanging = true;
    }

    public static RSAKey rsaKey(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ECKey ecKey(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims with {@code sub} and an {@code exp} an hour after {@code now}. */
    public static JWTClaimsSet.Builder claims(String subject, Instant now) {
        return new JWTClaimsSet.Builder()
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(3600)))
                .claim("roles", List.of("student"));
    }

    /** Signs with the key's own algorithm (RS256 or ES256) and kid. */
    public static String sign(JWK key, JWTClaimsSet claims) {
        return sign(key, claims, h -> h);
    }

    /** Signs with the key's own algorithm (RS256 or ES256) and kid, after {@code header} had its say. */
    public static String sign(JWK key, JWTClaimsSet claims, UnaryOperator<JWSHeader.Builder> header) {
        try {
            boolean rsa = key instanceof RSAKey;
            JWSHeader h = header.apply(
                            new JWSHeader.Builder(rsa ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256).keyID(key.getKeyID()))
                    .build();
            SignedJWT jwt = new SignedJWT(h, claims);
            jwt.sign(rsa ? new RSASSASigner(key.toRSAKey()) : new ECDSASigner(key.toECKey()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        executor.close();
    }
}
