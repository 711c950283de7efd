package dev.baton.server.auth;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import dev.baton.runtime.config.ConfigException;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The identity provider's public keys, fetched from its JWKS URL with Nimbus' {@link JWKSourceBuilder}.
 *
 * <ul>
 *   <li>The set is cached for {@link #CACHE_TIME_TO_LIVE} and refreshed in the background shortly before it expires,
 *       so requests do not wait for routine refreshes.
 *   <li>A token whose {@code kid} is not in the cached set forces a fetch (how a rotated key is picked up at once),
 *       but fetches are rate limited: at most two per {@link #MIN_FETCH_INTERVAL}, so tokens with made-up key ids
 *       cannot hammer the identity provider. A key removed from the set stops working at the next fetch.
 *   <li>Each fetch has a connect and a read timeout; a failed fetch is retried once; when the endpoint is down the
 *       last good set keeps being used for up to ten times the cache lifetime.
 *   <li>Only this URL is ever fetched: {@code jku}, {@code x5u}, {@code jwk} and {@code x5c} headers of a token are
 *       ignored, since the key selector reads keys from this source alone.
 * </ul>
 */
final class JwksSource {

    static final Duration CACHE_TIME_TO_LIVE = Duration.ofMillis(JWKSourceBuilder.DEFAULT_CACHE_TIME_TO_LIVE);
    static final Duration MIN_FETCH_INTERVAL = Duration.ofMillis(JWKSourceBuilder.DEFAULT_RATE_LIMIT_MIN_INTERVAL);

    private JwksSource() {}

    static JWKSource<SecurityContext> create(URI url, Duration timeout) {
        int millis = Math.toIntExact(timeout.toMillis());
        var retriever = new DefaultResourceRetriever(millis, millis, JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT);
        // a request waiting for another's fetch gives up once that fetch and its retry (connect + read, twice)
        // must have timed out, rather than after Nimbus' default 15 s
        long refreshTimeout = Math.min(JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT, 5L * millis);
        // virtual threads: the background refresh never keeps the JVM alive
        ExecutorService refresher = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("baton-jwks-refresh").factory());
        try {
            return JWKSourceBuilder.<SecurityContext>create(url.toURL(), retriever)
                    .cache(CACHE_TIME_TO_LIVE.toMillis(), refreshTimeout)
                    .refreshAheadCache(JWKSourceBuilder.DEFAULT_REFRESH_AHEAD_TIME, null, refresher, true, null, false)
                    .rateLimited(MIN_FETCH_INTERVAL.toMillis())
                    .retrying(true)
                    .outageTolerant(true)
                    .build();
        } catch (MalformedURLException | IllegalArgumentException e) {
            refresher.shutdown();
            throw new ConfigException("jwt.jwksUrl is not a usable URL: " + url);
        }
    }
}
