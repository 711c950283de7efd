package dev.baton.providers.anthropic;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.streaming.CancellableHttpClient;
import dev.baton.providers.streaming.FailureClassifier;
import dev.baton.providers.streaming.PerCallHttpClientBuilder;
import dev.baton.providers.streaming.StreamingCall;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ModelGateway} for Anthropic's Messages API, built on LangChain4j's
 * {@link AnthropicStreamingChatModel}.
 *
 * <p>Works like the OpenAI adapter: every call streams and blocks the calling thread until the answer is
 * complete (deltas reach {@code onDelta} on that thread, in order), never retries, and runs on its own
 * {@link CancellableHttpClient} over the gateway's shared JDK client. LangChain4j's stock JDK client cannot be
 * aborted before the first event arrives and turns non-2xx answers into exceptions without their headers, so a
 * cancelled or timed-out call would keep the connection (and Anthropic's billing) running and a 429 would lose
 * its {@code retry-after}; the cancellable client fixes both.
 *
 * <p>Failures: a 529 or an in-stream {@code overloaded_error} is {@code UNAVAILABLE}; 429 is
 * {@code RATE_LIMITED} with the {@code retry-after}; 401/403 {@code AUTHENTICATION}; other 4xx
 * {@code BAD_REQUEST}; a stream that ends without {@code message_stop} is {@code UNAVAILABLE}.
 *
 * <p>Thread-safe; create one per endpoint and share it. {@link #close()} releases the connection pool.
 */
public final class AnthropicModelGateway implements ModelGateway, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AnthropicModelGateway.class);
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final AnthropicConfig config;
    private final java.net.http.HttpClient transport;
    private final FailureClassifier failures;

    public AnthropicModelGateway(AnthropicConfig config) {
        this(config, Clock.systemUTC());
    }

    /** @param clock used to turn a {@code retry-after} date into a duration */
    public AnthropicModelGateway(AnthropicConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.failures = new FailureClassifier(config.name(), clock);
        this.transport = java.net.http.HttpClient.newBuilder()
                // HTTP/1.1 so that aborting a call closes its connection, which the provider notices
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(shorter(config.requestTimeout(), MAX_CONNECT_TIMEOUT))
                .build();
    }

    @Override
    public String provider() {
        return config.name();
    }

    public AnthropicConfig config() {
        return config;
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(onDelta, "onDelta");
        var limit = shorter(request.timeout(), config.requestTimeout());
        var exchange = new CancellableHttpClient(transport, event -> "message_stop".equals(event.event()));
        var model = modelOn(new MessageStopGuard(exchange), request);
        var chatRequest = AnthropicRequestMapper.toChatRequest(request, config.maxTokens());
        log.debug(
                "{} call: model={}, messages={}, tools={}",
                config.name(),
                request.model(),
                request.messages().size(),
                request.tools().size());
        try {
            var response = StreamingCall.run(model, chatRequest, exchange, request, limit, failures, onDelta);
            return AnthropicReplyMapper.toReply(response, request.model());
        } catch (ModelFailure failure) {
            throw AnthropicErrors.refine(failure, config.name());
        }
    }

    private AnthropicStreamingChatModel modelOn(MessageStopGuard client, ModelRequest request) {
        var builder = AnthropicStreamingChatModel.builder()
                .httpClientBuilder(new PerCallHttpClientBuilder(client))
                .baseUrl(config.baseUrl())
                .apiKey(config.apiKey())
                .version(config.version())
                .modelName(request.model())
                .maxTokens(config.maxTokens())
                .returnThinking(true)
                .customHeaders(config.headers());
        if (!request.tools().isEmpty()) {
            builder.customParameters(Map.of("tools", AnthropicRequestMapper.toolsOf(request.tools())));
        }
        return builder.build();
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
        return "AnthropicModelGateway[" + config + "]";
    }
}
