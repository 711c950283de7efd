package dev.baton.providers.openai;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.langchain.LangChainWireJson;
import dev.baton.providers.streaming.CallBoundHttpClient;
import dev.baton.providers.streaming.GatewayTransport;
import dev.baton.providers.streaming.PerCallHttpClientBuilder;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link dev.baton.core.model.ModelGateway} for OpenAI and every server that speaks its Chat Completions
 * protocol, built on LangChain4j's {@link OpenAiStreamingChatModel}.
 *
 * <p>Every call streams (with {@code stream_options.include_usage}, so usage arrives), blocks the calling
 * thread until the answer is complete (deltas are handed to {@code onDelta} on that same thread, in order; an
 * exception thrown by {@code onDelta} aborts the call and propagates unchanged), and never retries: a retry after partial output would duplicate text,
 * so retrying is the caller's decision. Each call gets its own {@link dev.baton.providers.streaming.CancellableHttpClient} over
 * the gateway's shared JDK client (the LangChain4j model is built once and reaches it through a
 * {@link CallBoundHttpClient}), so that cancelling the request or reaching its deadline closes that call's
 * connection, and the provider sees the disconnect, whether it is streaming or still silent.
 *
 * <p>Thread-safe; create one per endpoint and share it. {@link #close()} releases the connection pool.
 */
public final class OpenAiModelGateway implements ModelGateway, AutoCloseable {

    private final OpenAiCompatibleConfig config;
    private final GatewayTransport transport;
    private final CallBoundHttpClient calls = new CallBoundHttpClient();
    /** Built once: every call goes through {@link #calls} to the client of its own. */
    private final OpenAiStreamingChatModel model;

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
        this.config = Objects.requireNonNull(config, "config");
        LangChainWireJson.tune();
        this.transport = new GatewayTransport(OpenAiModelGateway.class, config.name(), config.requestTimeout(), clock);
        this.model = OpenAiStreamingChatModel.builder()
                .httpClientBuilder(new PerCallHttpClientBuilder(calls))
                .baseUrl(config.baseUrl())
                .apiKey(config.apiKey())
                .organizationId(config.organization())
                .customHeaders(config.headers())
                .customQueryParams(Map.copyOf(queryParams))
                .returnThinking(true)
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
        var exchange = transport.newExchange(event -> "[DONE]".equals(event.data()));
        var chatRequest = OpenAiRequestMapper.toChatRequest(request);
        var response = calls.during(exchange, () -> transport.stream(model, chatRequest, exchange, request, onDelta));
        var reply = OpenAiReplyMapper.toReply(response, request.model());
        if (!exchange.completionMarkerSeen() && reply.finishReason() == null) {
            // the connection closed cleanly but the provider never said the answer was complete
            throw transport.failures().cutShort();
        }
        return reply;
    }

    /** Lets running calls finish for a moment, then aborts the rest. */
    @Override
    public void close() {
        transport.close();
    }

    @Override
    public String toString() {
        return "OpenAiModelGateway[" + config + "]";
    }
}
