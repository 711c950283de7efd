package dev.baton.providers.streaming;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A LangChain4j {@link HttpClient} for exactly one model call, which can be aborted from another thread at any
 * point: before the request is sent, while the provider sends nothing, or mid-stream. Aborting cancels the JDK
 * exchange and the body subscription, which closes the TCP connection, so the provider sees the disconnect and
 * stops generating (and billing).
 *
 * <p>LangChain4j hands its handlers a streaming handle only once the first event arrived, and its stock JDK
 * client cannot be aborted before that; hence this client. It shares the gateway's {@link java.net.http.HttpClient}
 * (connection pool, selector thread) and tracks only its own exchange. Streaming bodies are always parsed as
 * {@code text/event-stream} (the {@link ServerSentEventParser} argument is ignored), because every provider that
 * speaks a chat-completions protocol streams that way.
 *
 * <p>After {@link #abort()} no callback reaches the listener: the caller already knows why the call ended.
 */
public final class CancellableHttpClient implements HttpClient {

    private final java.net.http.HttpClient transport;
    private final Predicate<ServerSentEvent> completionMarker;
    private final StreamingExchange exchange = new StreamingExchange();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile boolean completionMarkerSeen;
    private volatile ServerSentEventListener listener;
    private volatile Consumer<Runnable> pacing = Runnable::run;

    /**
     * @param completionMarker recognises the event with which the provider says the stream is complete (for
     *     OpenAI, {@code data: [DONE]}); a stream that ends without it was cut short
     */
    public CancellableHttpClient(java.net.http.HttpClient transport, Predicate<ServerSentEvent> completionMarker) {
        this.transport = transport;
        this.completionMarker = completionMarker;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        if (exchange.isAborted()) {
            throw new CancellationException("the call was aborted");
        }
        var future = exchange.send(transport, toJdkRequest(request), HttpResponse.BodyHandlers.ofString());
        try {
            var response = future.get();
            if (response.statusCode() < 200 || response.statusCode() >= 300) {
                throw new ProviderHttpException(
                        response.statusCode(),
                        response.body(),
                        response.headers().map());
            }
            return SuccessfulHttpResponse.builder()
                    .statusCode(response.statusCode())
                    .headers(response.headers().map())
                    .body(response.body())
                    .build();
        } catch (InterruptedException e) {
            abort();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new CompletionException(e.getCause());
        }
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser ignored, ServerSentEventListener listener) {
        this.listener = listener;
        if (exchange.isAborted()) {
            return;
        }
        var sse = new SseLineSubscriber(this, listener);
        exchange.streamLines(
                transport,
                toJdkRequest(request),
                info -> {
                    listener.onOpen(SuccessfulHttpResponse.builder()
                            .statusCode(info.statusCode())
                            .headers(info.headers().map())
                            .build());
                    return sse;
                },
                null,
                this::finishWithError);
    }

    /**
     * Reads the stream only as fast as {@code pacing} lets: it is handed how to read the next line and runs it when the
     * reader of the events has room (see {@link GatewayCall#whenRoom}). Without it every line is read at once.
     */
    public void pacedBy(Consumer<Runnable> pacing) {
        this.pacing = pacing;
    }

    void whenRoom(Runnable readMore) {
        pacing.accept(readMore);
    }

    /** Closes the connection of the call, whatever stage it is in. Idempotent; safe from any thread. */
    public void abort() {
        exchange.abort();
    }

    public boolean isAborted() {
        return exchange.isAborted();
    }

    /** Whether the provider sent its end-of-stream marker, i.e. the stream was not cut short. */
    public boolean completionMarkerSeen() {
        return completionMarkerSeen;
    }

    void attach(Flow.Subscription s) {
        exchange.attach(s);
    }

    void observe(ServerSentEvent event) {
        if (completionMarker.test(event)) {
            completionMarkerSeen = true;
        }
    }

    // after abort() the caller already knows why the call ended: no callback reaches the listener
    void finishNormally(ServerSentEventListener target) {
        if (!exchange.isAborted() && finished.compareAndSet(false, true)) {
            target.onClose();
        }
    }

    void finishWithError(Throwable error) {
        var target = listener;
        if (target != null && !exchange.isAborted() && finished.compareAndSet(false, true)) {
            target.onError(error);
        }
    }

    private static java.net.http.HttpRequest toJdkRequest(HttpRequest request) {
        var builder = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
        request.headers().forEach((name, values) -> {
            if (values != null) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        var body = request.body() == null
                ? java.net.http.HttpRequest.BodyPublishers.noBody()
                : java.net.http.HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8);
        return builder.method(request.method().name(), body).build();
    }
}
