package dev.baton.providers.ollama;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.streaming.FailureClassifier;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * {@code onDelta} on that thread, in order; an exception from {@code onDelta} aborts the call and propagates),
 * never retries, maps failures to {@link ModelFailure} kinds. Thread-safe; {@link #close()} releases the pool.
 */
public final class OllamaModelGateway implements ModelGateway, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OllamaModelGateway.class);
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final OllamaConfig config;
    private final java.net.http.HttpClient transport;
    private final FailureClassifier failures;

    public OllamaModelGateway(OllamaConfig config) {
        this(config, Clock.systemUTC());
    }

    /** @param clock used to turn a {@code Retry-After} date into a duration */
    public OllamaModelGateway(OllamaConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.failures = new FailureClassifier(config.name(), clock);
        this.transport = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(shorter(config.requestTimeout(), MAX_CONNECT_TIMEOUT))
                .build();
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
        var cancellation = request.cancellation();
        if (cancellation.isCancelled()) {
            throw failures.cancelled();
        }
        var limit = shorter(request.timeout(), config.requestTimeout());
        long deadline = System.nanoTime() + limit.toNanos();
        var http = HttpRequest.newBuilder(config.chatUri())
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-ndjson");
        config.headers().forEach(http::header);
        http.POST(HttpRequest.BodyPublishers.ofString(OllamaWire.requestBody(request), StandardCharsets.UTF_8));
        log.debug(
                "{} call: model={}, messages={}, tools={}",
                config.name(),
                request.model(),
                request.messages().size(),
                request.tools().size());

        var exchange = new NdjsonExchange();
        var assembly = new OllamaWire.Assembly();
        var registration = cancellation.onCancel(exchange::cancel);
        boolean completed = false;
        try {
            exchange.start(transport, http.build());
            while (true) {
                long remaining = deadline - System.nanoTime();
                var signal = remaining > 0 ? exchange.signals().poll(remaining, TimeUnit.NANOSECONDS) : null;
                if (signal == null) {
                    throw failures.timedOut(limit);
                }
                switch (signal) {
                    case NdjsonExchange.Signal.Line line -> {
                        var piece = accept(assembly, line.text());
                        if (!piece.thinking().isEmpty()) {
                            onDelta.accept(new ModelDelta.Thinking(piece.thinking()));
                        }
                        if (!piece.text().isEmpty()) {
                            onDelta.accept(new ModelDelta.Text(piece.text()));
                        }
                        if (assembly.done()) {
                            completed = true;
                            var model = assembly.model() == null ? request.model() : assembly.model();
                            return new ModelReply(
                                    assembly.text(),
                                    assembly.calls(),
                                    assembly.usage(),
                                    model,
                                    assembly.finishReason());
                        }
                    }
                    case NdjsonExchange.Signal.Failed failed ->
                        throw cancellation.isCancelled() ? failures.cancelled() : failures.classify(failed.error());
                    case NdjsonExchange.Signal.Ended ended -> throw failures.cutShort();
                    case NdjsonExchange.Signal.Cancelled c -> throw failures.cancelled();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.cancelled();
        } finally {
            if (!completed) {
                exchange.abort();
            }
            close(registration);
        }
    }

    private OllamaWire.Piece accept(OllamaWire.Assembly assembly, String line) {
        try {
            return assembly.accept(line);
        } catch (OllamaWire.StreamError e) {
            throw new ModelFailure(Kind.UNAVAILABLE, e.getMessage(), null, e);
        } catch (IOException e) {
            throw failures.classify(e);
        }
    }

    private static void close(AutoCloseable registration) {
        try {
            registration.close();
        } catch (Exception e) {
            // Cancellation's handle only removes a listener from a list and cannot fail
            throw new IllegalStateException(e);
        }
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /** Lets running calls finish for a moment, then aborts the rest. */
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
        return "OllamaModelGateway[" + config + "]";
    }
}
