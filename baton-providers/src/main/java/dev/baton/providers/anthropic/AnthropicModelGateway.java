package dev.baton.providers.anthropic;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.langchain.LangChainWireJson;
import dev.baton.providers.streaming.CancellableHttpClient;
import dev.baton.providers.streaming.GatewayTransport;
import dev.baton.providers.streaming.PerCallHttpClientBuilder;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

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

    private final AnthropicConfig config;
    private final GatewayTransport transport;

    public AnthropicModelGateway(AnthropicConfig config) {
        this(config, Clock.systemUTC());
    }

    /** @param clock used to turn a {@code retry-after} date into a duration */
    public AnthropicModelGateway(AnthropicConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        LangChainWireJson.tune();
        this.transport =
                new GatewayTransport(AnthropicModelGateway.class, config.name(), config.requestTimeout(), clock);
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
        var exchange = transport.newExchange(event -> "message_stop".equals(event.event()));
        var model = modelOn(new MessageStopGuard(exchange), request);
        var chatRequest = AnthropicRequestMapper.toChatRequest(request, config.maxTokens());
        try {
            var response = transport.stream(model, chatRequest, exchange, request, onDelta);
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

    /** Lets running calls finish for a moment, then aborts the rest. */
    @Override
    public void close() {
        transport.close();
    }

    @Override
    public String toString() {
        return "AnthropicModelGateway[" + config + "]";
    }
}
