package dev.baton.providers.openai;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.streaming.CancellableHttpClient;
import dev.baton.providers.streaming.FailureClassifier;
import dev.baton.providers.streaming.StreamingCall;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link dev.baton.core.model.ModelGateway} for OpenAI and every server that speaks its Chat Completions
 * protocol, built on LangChain4j's {@link OpenAiStreamingChatModel}.
 *
 * <p>Every call streams (with {@code stream_options.include_usage}, so usage arrives), blocks the calling
 * thread until the answer is complete (deltas are handed to {@code onDelta} on that same thread, in order; an
 * exception thrown by {@code onDelta} aborts the call and propagates unchanged), and never retries: a retry after partial output would duplicate text,
 * so retrying is the caller's decision. Each call gets its own {@link CancellableHttpClient} over the
 * gateway's shared JDK client, so that cancelling the request or reaching its deadline closes that call's
 * connection, and the provider sees the disconnect, whether it is streaming or still silent.
 *
 * <p>Thread-safe; create one per endpoint and share it. {@link #close()} releases the connection pool.
 */
public final class OpenAiModelGateway implements ModelGateway, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpenAiModelGateway.class);
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final OpenAiCompatibleConfig config;
    private final java.net.http.HttpClient transport;
    private final FailureClassifier failures;
    private final Map<String, String> queryParams;

    public OpenAiModelGateway(OpenAiCompatibleConfig config) {
        this(config, Clock.systemUTC());
    }

    /** @param clock used to turn a {@code Retry-After} date into a duration */
    public OpenAiModelGateway(OpenAiCompatibleConfig config, Clock clock) {
        this(config, Map.of(), clock);
    }

    /**
     * @param queryParams added to every request URL, e.g. Azure OpenAI's {@code api-version}
     * @param clock used to turn a {@code Retry-After} date into a duration
     */
    public OpenAiModelGateway(OpenAiCompatibleConfig config, Map<String, String> queryParams, Clock clock) {
        this.queryParams = Map.copyOf(queryParams);
        this.config = Objects.requireNonNull(config, "config");
        this.failures = new FailureClassifier(config.name(), clock);
        var connectTimeout = shorter(config.requestTimeout(), MAX_CONNECT_TIMEOUT);
        this.transport = java.net.http.HttpClient.newBuilder()
                // HTTP/1.1 so that aborting a call closes its connection: an HTTP/2 stream reset is invisible
                // to proxies in between and to some compatible servers, which would keep generating
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .build();
    }

    @Override
    public String provider() {
        return config.name();
    }

    public OpenAiCompatibleConfig config() {
        return config;
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(onDelta, "onDelta");
        var limit = shorter(request.timeout(), config.requestTimeout());
        var exchange = new CancellableHttpClient(transport, event -> "[DONE]".equals(event.data()));
        var model = modelOn(exchange);
        var chatRequest = OpenAiRequestMapper.toChatRequest(request);
        log.debug(
                "{} call: model={}, messages={}, tools={}",
                config.name(),
                request.model(),
                request.messages().size(),
                request.tools().size());
        var response = StreamingCall.run(model, chatRequest, exchange, request, limit, failures, onDelta);
        var reply = OpenAiReplyMapper.toReply(response, request.model());
        if (!exchange.completionMarkerSeen() && reply.finishReason() == null) {
            // the connection closed cleanly but the provider never said the answer was complete
            throw failures.cutShort();
        }
        return reply;
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    private OpenAiStreamingChatModel modelOn(CancellableHttpClient exchange) {
        return OpenAiStreamingChatModel.builder()
                .httpClientBuilder(new FixedHttpClientBuilder(exchange))
                .baseUrl(config.baseUrl())
                .apiKey(config.apiKey())
                .organizationId(config.organization())
                .customHeaders(config.headers())
                .customQueryParams(queryParams)
                .returnThinking(true)
                .build();
    }

    /**
     * Lets running calls finish for a moment, then aborts the rest: the JDK client's own {@code close()} would
     * wait for a provider that hangs forever.
     */
    @Override
    public void close() {
        transport.shutdown();
        try {
            if (!transport.awaitTermination(CLOSE_GRACE)) {
                transport.shutdownNow();
            }
        } catch (InterruptedException e) {
            transport.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "OpenAiModelGateway[" + config + "]";
    }

    /** Hands LangChain4j the per-call client; the timeouts it sets are ours to enforce, not the client's. */
    private static final class FixedHttpClientBuilder implements HttpClientBuilder {
        private final HttpClient client;
        private Duration connectTimeout;
        private Duration readTimeout;

        FixedHttpClientBuilder(HttpClient client) {
            this.client = client;
        }

        @Override
        public Duration connectTimeout() {
            return connectTimeout;
        }

        @Override
        public HttpClientBuilder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        @Override
        public Duration readTimeout() {
            return readTimeout;
        }

        @Override
        public HttpClientBuilder readTimeout(Duration timeout) {
            this.readTimeout = timeout;
            return this;
        }

        @Override
        public HttpClient build() {
            return client;
        }
    }
}
