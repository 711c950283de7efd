package dev.baton.providers.ollama;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.streaming.GatewayCall;
import dev.baton.providers.streaming.GatewayTransport;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link ModelGateway} for Ollama's native chat API ({@code POST /api/chat}, streamed as newline-delimited
 * JSON, tool calls with object arguments, usage as {@code prompt_eval_count}/{@code eval_count}).
 *
 * <p>Speaks the wire itself rather than through LangChain4j's {@code langchain4j-ollama}: that module is not
 * published on Maven Central at the version the LangChain4j BOM pins (1.19.0; the newest release is 1.18.1, and
 * mixing it with core 1.19.0 is unsupported), and its streaming reads NDJSON through LangChain4j's parser hook,
 * which the cancellable client the other adapters share does not implement. The protocol is one POST and JSON
 * lines, so {@link NdjsonExchange} does what {@code CancellableHttpClient} does for SSE: every call can be
 * aborted at any stage and the server sees the connection close.
 *
 * <p>Like the other adapters: blocks the calling thread until the answer is complete (deltas reach
 * {@code onDelta} on that thread, in order, tool calls as one delta each; an exception from {@code onDelta} aborts
 * the call and propagates),
 * never retries, maps failures to {@link ModelFailure} kinds. Thread-safe; {@link #close()} releases the pool.
 */
public final class OllamaModelGateway implements ModelGateway, AutoCloseable {

    private final OllamaConfig config;
    private final GatewayTransport transport;

    public OllamaModelGateway(OllamaConfig config) {
        this(config, Clock.systemUTC());
    }

    /** @param clock used to turn a {@code Retry-After} date into a duration */
    public OllamaModelGateway(OllamaConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.transport = new GatewayTransport(OllamaModelGateway.class, config.name(), config.requestTimeout(), clock);
    }

    @Override
    public String provider() {
        return config.name();
    }

    public OllamaConfig config() {
        return config;
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(onDelta, "onDelta");
        var exchange = new NdjsonExchange();
        GatewayCall<String> call = transport.open(request, exchange::abort);
        var http = HttpRequest.newBuilder(config.chatUri())
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-ndjson");
        config.headers().forEach(http::header);
        http.POST(HttpRequest.BodyPublishers.ofString(OllamaWire.requestBody(request), StandardCharsets.UTF_8));
        transport.logCall(request);

        var assembly = new OllamaWire.Assembly();
        return call.await(() -> exchange.start(transport.client(), http.build(), call), line -> {
            var piece = accept(assembly, line);
            if (!piece.thinking().isEmpty()) {
                onDelta.accept(new ModelDelta.Thinking(piece.thinking()));
            }
            if (!piece.text().isEmpty()) {
                onDelta.accept(new ModelDelta.Text(piece.text()));
            }
            // Ollama sends each call whole, so one delta carries all of its arguments
            for (int i = 0; i < piece.calls().size(); i++) {
                var toolCall = piece.calls().get(i);
                onDelta.accept(new ModelDelta.ToolCallDelta(
                        piece.firstCallIndex() + i, toolCall.id(), toolCall.name(), toolCall.argumentsJson()));
            }
            return assembly.done() ? Optional.of(replyOf(assembly, request)) : Optional.empty();
        });
    }

    private static ModelReply replyOf(OllamaWire.Assembly assembly, ModelRequest request) {
        var model = assembly.model() == null ? request.model() : assembly.model();
        return new ModelReply(assembly.text(), assembly.calls(), assembly.usage(), model, assembly.finishReason());
    }

    private OllamaWire.Piece accept(OllamaWire.Assembly assembly, String line) {
        try {
            return assembly.accept(line);
        } catch (OllamaWire.StreamError e) {
            throw new ModelFailure(Kind.UNAVAILABLE, e.getMessage(), null, e);
        } catch (IOException e) {
            throw transport.failures().classify(e);
        }
    }

    /** Lets running calls finish for a moment, then aborts the rest. */
    @Override
    public void close() {
        transport.close();
    }

    @Override
    public String toString() {
        return "OllamaModelGateway[" + config + "]";
    }
}
