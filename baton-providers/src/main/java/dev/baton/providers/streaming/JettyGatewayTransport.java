package dev.baton.providers.streaming;

import dev.baton.core.model.ModelRequest;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one gateway shares across its calls on Jetty's HTTP client: the client (connection pool, one selector thread,
 * pooled buffers), the {@link FailureClassifier} that names the provider, and the endpoint's time limit. Its calls are
 * {@link PulledSseExchange}s, read by the calling thread itself. Only the OpenAI-compatible wire (OpenAI, Azure, the
 * simulator, compatible servers) runs here; Anthropic's and Ollama's stay on the JDK client ({@link GatewayTransport}).
 *
 * <p>The client speaks HTTP/1.1 only, so that aborting a call closes its connection (an HTTP/2 stream reset is
 * invisible to proxies in between and to some compatible servers, which would keep generating). It behaves as the JDK
 * client did: no redirects followed, no cookies kept, no authentication handshakes, no compressed bodies asked for, no
 * bound on connections worth meeting, idle connections closed after {@link #IDLE_CONNECTION_TIMEOUT} and none while a
 * call waits on one (the call's own deadline bounds it).
 *
 * <p>Its threads: the selector, which parses responses' heads and wakes the calls' threads (its callbacks never block,
 * so it runs them itself rather than handing each to another thread), a timer for connect and idle timeouts, and a
 * small pool for the rest (resolving a host's address); anything Jetty marks as blocking runs on a virtual thread. All
 * are daemons and stop on {@link #close()}.
 */
public final class JettyGatewayTransport implements AutoCloseable {

    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CLOSE_GRACE = Duration.ofSeconds(2);
    static final Duration IDLE_CONNECTION_TIMEOUT = Duration.ofSeconds(30);
    /** Far more than a server runs calls at once: the JDK client had no bound, and calls must not queue for one. */
    private static final int MAX_CONNECTIONS = 4096;

    private final Logger log;
    private final String provider;
    private final Duration requestTimeout;
    private final Duration closeGrace;
    private final FailureClassifier failures;
    private final HttpClient client;
    private final Set<PulledSseExchange> live = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ended = lock.newCondition();
    private volatile boolean closing;

    /**
     * @param gateway the gateway class, whose logger reports the calls
     * @param provider the provider name failures, logs and thread names carry
     * @param requestTimeout the upper bound for one call; a request's own timeout applies when it is shorter
     * @param clock used to turn a {@code Retry-After} date into a duration
     */
    public JettyGatewayTransport(Class<?> gateway, String provider, Duration requestTimeout, Clock clock) {
        this(gateway, provider, requestTimeout, clock, CLOSE_GRACE);
    }

    /** @param closeGrace how long {@link #close()} lets running calls finish */
    JettyGatewayTransport(
            Class<?> gateway, String provider, Duration requestTimeout, Clock clock, Duration closeGrace) {
        this.log = LoggerFactory.getLogger(gateway);
        this.provider = provider;
        this.requestTimeout = requestTimeout;
        this.closeGrace = closeGrace;
        this.failures = new FailureClassifier(provider, clock);
        this.client = started(provider, shorter(requestTimeout, MAX_CONNECT_TIMEOUT));
    }

    private static HttpClient started(String provider, Duration connectTimeout) {
        String name = "baton-model-" + provider;
        var threads = new QueuedThreadPool(8, 1);
        threads.setName(name);
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        threads.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor(name + "-vt"));
        var connector = new ClientConnector();
        connector.setSelectors(1);
        connector.setExecutor(threads);
        connector.setScheduler(new ScheduledExecutorScheduler(name + "-timer", true));
        connector.setConnectTimeout(connectTimeout);
        connector.setIdleTimeout(IDLE_CONNECTION_TIMEOUT);
        var transport = new HttpClientTransportOverHTTP(connector);
        transport.setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        var client = new HttpClient(transport);
        client.setName(name);
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.setMaxConnectionsPerDestination(MAX_CONNECTIONS);
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP client for " + provider + " did not start", e);
        }
        // set up on start: without them a 401 or a 3xx is the caller's, as on the JDK client, and no body is compressed
        client.getContentDecoderFactories().clear();
        client.getProtocolHandlers().clear();
        return client;
    }

    public FailureClassifier failures() {
        return failures;
    }

    /** A request to {@code uri} on this transport's client, for one {@link PulledSseExchange}. */
    public Request newRequest(URI uri) {
        // no idle timeout while the call waits on its connection: a model may think for long, and the call's deadline
        // (which a caller held up by its client moves on) is what bounds it
        return client.newRequest(uri).idleTimeout(0, TimeUnit.MILLISECONDS);
    }

    /** A new exchange on this transport; one per call. */
    public PulledSseExchange newExchange() {
        return new PulledSseExchange(this);
    }

    /**
     * Opens a call whose stream the calling thread reads (see {@link GatewayCall#pull}).
     *
     * @param abort closes the call's exchange
     */
    public <T> GatewayCall<T> open(ModelRequest request, Runnable abort) {
        return GatewayCall.open(request, shorter(request.timeout(), requestTimeout), failures, abort);
    }

    /** Never logs message contents: only their number. */
    public void logCall(ModelRequest request) {
        ModelCallLog.call(log, provider, request);
    }

    /** @return false once the transport is closing: the exchange must not be sent */
    boolean admit(PulledSseExchange exchange) {
        live.add(exchange);
        if (!closing) return true;
        ended(exchange);
        return false;
    }

    /** The exchange is over (Jetty reported it complete, or it never went out). */
    void ended(PulledSseExchange exchange) {
        live.remove(exchange);
        if (!closing) return;
        lock.lock();
        try {
            ended.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** How many exchanges Jetty has not reported complete yet (tests). */
    int liveExchanges() {
        return live.size();
    }

    /** Whether {@link #close()} began (tests). */
    boolean isClosing() {
        return closing;
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /** Lets running calls finish for a moment, then aborts the rest and stops the client's threads. */
    @Override
    public void close() {
        closing = true;
        long until = System.nanoTime() + closeGrace.toNanos();
        lock.lock();
        try {
            for (long left; !live.isEmpty() && (left = until - System.nanoTime()) > 0; ) ended.awaitNanos(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
        List.copyOf(live).forEach(PulledSseExchange::abort);
        try {
            client.stop();
        } catch (Exception e) {
            log.warn("{}: stopping the HTTP client failed", provider, e);
        }
    }
}
