package dev.baton.providers.streaming;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelRequest;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one gateway shares across its calls: the JDK client (connection pool, selector thread) every call's
 * exchange runs on, the {@link FailureClassifier} that names the provider, and the endpoint's time limit. Each
 * gateway owns one and keeps only what is specific to its wire. Anthropic's (through LangChain4j) and Ollama's
 * gateways run here; the OpenAI-compatible wire moved to Jetty's client, whose stream the turn's thread reads itself
 * ({@link JettyGatewayTransport}).
 *
 * <p>The client speaks HTTP/1.1 so that aborting a call closes its connection: an HTTP/2 stream reset is
 * invisible to proxies in between and to some compatible servers, which would keep generating.
 *
 * <p>The client's own work (reading the socket into the body's subscriber, completing its futures) runs on virtual
 * threads. Its default, a cached pool of platform threads fed through a {@code SynchronousQueue}, hands every piece
 * of a streamed answer from one parked thread to another; on virtual threads that work shares the carriers the turns
 * run on, and a tool turn took 3–30 % less CPU, the less the warmer the server (baton-bench/README.md, "The model client
 * on virtual threads").
 */
public final class GatewayTransport implements AutoCloseable {

    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final Logger log;
    private final String provider;
    private final Duration requestTimeout;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;
    private final FailureClassifier failures;

    /**
     * @param gateway the gateway class, whose logger reports the calls
     * @param provider the provider name failures and logs carry
     * @param requestTimeout the upper bound for one call; a request's own timeout applies when it is shorter
     * @param clock used to turn a {@code Retry-After} date into a duration
     */
    public GatewayTransport(Class<?> gateway, String provider, Duration requestTimeout, Clock clock) {
        this.log = LoggerFactory.getLogger(gateway);
        this.provider = provider;
        this.requestTimeout = requestTimeout;
        this.failures = new FailureClassifier(provider, clock);
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(executor)
                .connectTimeout(shorter(requestTimeout, MAX_CONNECT_TIMEOUT))
                .build();
    }

    public HttpClient client() {
        return client;
    }

    public FailureClassifier failures() {
        return failures;
    }

    /** A LangChain4j client for one call on the shared JDK client. */
    public CancellableHttpClient newExchange(Predicate<ServerSentEvent> completionMarker) {
        return new CancellableHttpClient(client, completionMarker);
    }

    /**
     * Opens a call whose stream the gateway reads itself (see {@link GatewayCall#open}).
     *
     * @param abort closes the call's exchange
     */
    public <T> GatewayCall<T> open(ModelRequest request, Runnable abort) {
        return GatewayCall.open(request, limitFor(request), failures, abort);
    }

    /** Runs one LangChain4j streaming chat built on {@code exchange} (see {@link StreamingCall#run}). */
    public ChatResponse stream(
            StreamingChatModel model,
            ChatRequest chatRequest,
            CancellableHttpClient exchange,
            ModelRequest request,
            Consumer<ModelDelta> onDelta) {
        logCall(request);
        return StreamingCall.run(model, chatRequest, exchange, request, limitFor(request), failures, onDelta);
    }

    /** Never logs message contents: only their number. */
    public void logCall(ModelRequest request) {
        ModelCallLog.call(log, provider, request);
    }

    private Duration limitFor(ModelRequest request) {
        return shorter(request.timeout(), requestTimeout);
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /**
     * Lets running calls finish for a moment, then aborts the rest: the JDK client's own {@code close()} would
     * wait for a provider that hangs forever.
     */
    @Override
    public void close() {
        client.shutdown();
        try {
            if (!client.awaitTermination(CLOSE_GRACE)) {
                client.shutdownNow();
            }
        } catch (InterruptedException e) {
            client.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            // the client does not own an executor it was given; once it has stopped, nothing of it runs there
            executor.shutdownNow();
        }
    }
}
