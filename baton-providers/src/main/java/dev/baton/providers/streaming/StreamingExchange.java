package dev.baton.providers.streaming;

import dev.baton.core.trace.TraceContextHeaders;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The JDK exchange of one model call, which can be aborted from any thread at any stage: before the response,
 * while the provider sends nothing, or mid-stream. Aborting cancels the exchange and the body subscription,
 * which closes the TCP connection, so the provider sees the disconnect and stops generating (and billing).
 *
 * <p>Shared by the wires the gateways speak: {@link CancellableHttpClient} reads the lines as server-sent
 * events, Ollama's gateway as newline-delimited JSON.
 */
public final class StreamingExchange {

    /**
     * How many lines a reader asks for before the first arrives; after that it asks for one more per line, once the
     * call has room for it, so a stream whose caller is held up stops being read.
     */
    public static final int LINES_AHEAD = 16;

    private final AtomicBoolean aborted = new AtomicBoolean();
    private volatile CompletableFuture<?> inFlight;
    private volatile Flow.Subscription subscription;

    /**
     * Sends {@code request} and streams a 2xx body line by line; any other status becomes a
     * {@link ProviderHttpException} with the body and headers, and a failed exchange its cause, both handed to
     * {@code onFailure} (on an HTTP thread).
     *
     * @param lines the subscriber for a 2xx response's lines, told the response first
     * @param lineSeparator what ends a line; {@code null} for any of CR, LF and CRLF
     */
    public void streamLines(
            HttpClient client,
            HttpRequest request,
            Function<ResponseInfo, Flow.Subscriber<String>> lines,
            String lineSeparator,
            Consumer<Throwable> onFailure) {
        var future = client.sendAsync(traced(request), info -> {
            if (info.statusCode() >= 200 && info.statusCode() < 300) {
                return BodySubscribers.fromLineSubscriber(
                        lines.apply(info), s -> null, StandardCharsets.UTF_8, lineSeparator);
            }
            var headers = info.headers().map();
            return BodySubscribers.mapping(BodySubscribers.ofString(StandardCharsets.UTF_8), body -> {
                onFailure.accept(new ProviderHttpException(info.statusCode(), body, headers));
                return null;
            });
        });
        future.whenComplete((response, error) -> {
            if (error != null) {
                onFailure.accept(
                        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            }
        });
        track(future);
    }

    /** Sends {@code request} for a whole body; the exchange can be aborted until it returns. */
    public <T> CompletableFuture<HttpResponse<T>> send(
            HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body) {
        var future = client.sendAsync(traced(request), body);
        track(future);
        return future;
    }

    /**
     * Records the subscription to the streamed body, so that aborting cancels it.
     *
     * @return false when the exchange was already aborted; the subscription is then cancelled
     */
    public boolean attach(Flow.Subscription s) {
        subscription = s;
        if (aborted.get()) {
            s.cancel();
            return false;
        }
        return true;
    }

    /**
     * Closes the connection of the call, whatever stage it is in. Idempotent; safe from any thread.
     *
     * @return whether this call aborted the exchange (false when it was aborted already)
     */
    public boolean abort() {
        if (!aborted.compareAndSet(false, true)) {
            return false;
        }
        var s = subscription;
        if (s != null) {
            s.cancel();
        }
        var f = inFlight;
        if (f != null) {
            f.cancel(true);
        }
        return true;
    }

    public boolean isAborted() {
        return aborted.get();
    }

    /** The request with the current span's {@code traceparent}, so the provider's side joins the turn's trace. */
    private static HttpRequest traced(HttpRequest request) {
        if (!TraceContextHeaders.present()) return request;
        HttpRequest.Builder copy = HttpRequest.newBuilder(request, (name, value) -> true);
        TraceContextHeaders.inject(copy::setHeader);
        return copy.build();
    }

    private void track(CompletableFuture<?> future) {
        inFlight = future;
        // abort() may have run between the caller's aborted check and the assignment above
        if (aborted.get()) {
            future.cancel(true);
        }
    }
}
