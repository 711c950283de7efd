package dev.baton.providers.ollama;

import dev.baton.providers.streaming.ProviderHttpException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One streamed NDJSON exchange whose lines are queued for the calling thread, and which can be aborted from any
 * thread at any stage (before the response, while the server is silent, mid-stream). Aborting cancels the JDK
 * exchange and the body subscription, which closes the connection, so the server stops generating.
 */
final class NdjsonExchange {

    /** What the exchange reports to the calling thread, in order. */
    sealed interface Signal {
        record Line(String text) implements Signal {}

        record Failed(Throwable error) implements Signal {}

        record Ended() implements Signal {}

        record Cancelled() implements Signal {}
    }

    private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
    private final AtomicBoolean aborted = new AtomicBoolean();
    private volatile CompletableFuture<?> inFlight;
    private volatile Flow.Subscription subscription;

    BlockingQueue<Signal> signals() {
        return signals;
    }

    void start(HttpClient transport, HttpRequest request) {
        var future = transport.sendAsync(request, info -> {
            if (info.statusCode() >= 200 && info.statusCode() < 300) {
                return BodySubscribers.fromLineSubscriber(new Lines(), s -> null, StandardCharsets.UTF_8, "\n");
            }
            var headers = info.headers().map();
            return BodySubscribers.mapping(BodySubscribers.ofString(StandardCharsets.UTF_8), body -> {
                signals.add(new Signal.Failed(new ProviderHttpException(info.statusCode(), body, headers)));
                return null;
            });
        });
        future.whenComplete((response, error) -> {
            if (error != null && !aborted.get()) {
                signals.add(new Signal.Failed(
                        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error));
            }
        });
        inFlight = future;
        if (aborted.get()) {
            future.cancel(true);
        }
    }

    /** Closes the connection, whatever stage the exchange is in. Idempotent; safe from any thread. */
    void abort() {
        if (!aborted.compareAndSet(false, true)) {
            return;
        }
        var s = subscription;
        if (s != null) {
            s.cancel();
        }
        var f = inFlight;
        if (f != null) {
            f.cancel(true);
        }
    }

    void cancel() {
        abort();
        signals.add(new Signal.Cancelled());
    }

    private final class Lines implements Flow.Subscriber<String> {
        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (aborted.get()) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(String line) {
            if (!aborted.get() && !line.isBlank()) {
                signals.add(new Signal.Line(line));
            }
        }

        @Override
        public void onError(Throwable error) {
            if (!aborted.get()) {
                signals.add(new Signal.Failed(error));
            }
        }

        @Override
        public void onComplete() {
            if (!aborted.get()) {
                signals.add(new Signal.Ended());
            }
        }
    }
}
