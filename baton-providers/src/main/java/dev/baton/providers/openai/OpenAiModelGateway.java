package dev.baton.providers.openai;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.streaming.GatewayCall;
import dev.baton.providers.streaming.JettyGatewayTransport;
import dev.baton.providers.streaming.SseData;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;

/**
 * A {@link ModelGateway} for OpenAI and every server that speaks its Chat Completions protocol (Azure OpenAI, Gemini's
 * OpenAI endpoint, vLLM, Ollama's {@code /v1}, OpenRouter, the Baton simulator).
 *
 * <p>Speaks the wire itself ({@link ChatCompletionsRequest}, {@link ChatCompletionsStream}) rather than through
 * LangChain4j's {@code OpenAiStreamingChatModel}, which Baton had used for everything but what it did not do well:
 * the tool schemas went around its typed schema, the finish reason around its enum, the HTTP client was Baton's, and
 * what it added per call was what cost most — request objects written to a String, a tree and response objects for
 * every streamed chunk, and every raw chunk kept until the answer was complete (a turn held up by its client held
 * its answer twice over in LangChain4j alone). Anthropic's adapter stays on LangChain4j.
 *
 * <p>The wire runs on Jetty's HTTP client ({@link JettyGatewayTransport}), and the calling thread reads the streamed
 * answer itself ({@link dev.baton.providers.streaming.PulledSseExchange}): the socket, the HTTP chunks, the events and
 * each event's JSON, from pooled buffers, with no piece handed from thread to thread. Anthropic and Ollama stay on the
 * JDK client.
 *
 * <p>Every call streams (with {@code stream_options.include_usage}, so usage arrives), blocks the calling thread until
 * the answer is complete (deltas are handed to {@code onDelta} on that same thread, in order; an exception thrown by
 * {@code onDelta} aborts the call and propagates unchanged), and never retries: a retry after partial output would
 * duplicate text, so retrying is the caller's decision. Cancelling the request or reaching its deadline closes that
 * call's connection, and the provider sees the disconnect, whether it is streaming or still silent.
 *
 * <p>Thread-safe; create one per endpoint and share it. {@link #close()} releases the connection pool.
 */
public final class OpenAiModelGateway implements ModelGateway, AutoCloseable {

    private final OpenAiCompatibleConfig config;
    private final JettyGatewayTransport transport;
    private final URI endpoint;

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
        this.transport =
                new JettyGatewayTransport(OpenAiModelGateway.class, config.name(), config.requestTimeout(), clock);
        this.endpoint = endpointOf(config.baseUrl(), queryParams);
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
        Request http = httpRequest(request);
        var exchange = transport.newExchange();
        GatewayCall<SseData> call = transport.open(request, exchange::abort);
        transport.logCall(request);
        var answer = new ChatCompletionsStream();
        return call.pull(() -> exchange.send(http), exchange, data -> {
            // the provider closed the stream: complete when the answer finished, even without "[DONE]"
            if (data == SseData.END_OF_STREAM) {
                if (answer.finished()) return Optional.of(answer.reply(request.model()));
                throw transport.failures().cutShort();
            }
            accept(answer, data, onDelta);
            return answer.done() ? Optional.of(answer.reply(request.model())) : Optional.empty();
        });
    }

    private void accept(ChatCompletionsStream answer, SseData data, Consumer<ModelDelta> onDelta) {
        try {
            answer.accept(data, onDelta);
        } catch (ChatCompletionsStream.StreamError e) {
            throw new ModelFailure(Kind.UNAVAILABLE, config.name() + ": " + e.getMessage(), null, e);
        } catch (IOException e) {
            throw transport.failures().classify(e);
        }
    }

    private Request httpRequest(ModelRequest request) {
        byte[] body;
        try {
            body = ChatCompletionsRequest.body(request);
        } catch (RuntimeException e) {
            throw transport.failures().classifyBeforeSending(e);
        }
        return transport
                .newRequest(endpoint)
                .method(HttpMethod.POST)
                .headers(headers -> {
                    headers.put(HttpHeader.ACCEPT, "text/event-stream");
                    if (config.apiKey() != null) headers.put(HttpHeader.AUTHORIZATION, "Bearer " + config.apiKey());
                    if (config.organization() != null) headers.put("OpenAI-Organization", config.organization());
                    config.headers().forEach(headers::add);
                })
                .body(new BytesRequestContent("application/json", body));
    }

    private static URI endpointOf(String baseUrl, Map<String, String> queryParams) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        String query = queryParams.entrySet().stream()
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
        return URI.create(base + "/chat/completions" + (query.isEmpty() ? "" : "?" + query));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
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
