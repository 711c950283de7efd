package dev.baton.providers.ollama;

import dev.baton.providers.streaming.GatewayCall;
import dev.baton.providers.streaming.StreamingExchange;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.concurrent.Flow;

/**
 * One streamed NDJSON exchange whose non-blank lines go to a {@link GatewayCall} for the calling thread, and
 * which can be aborted from any thread at any stage (before the response, while the server is silent,
 * mid-stream). Aborting closes the connection, so the server stops generating; nothing reaches the call after it.
 */
final class NdjsonExchange {

    private final StreamingExchange exchange = new StreamingExchange();

    void start(HttpClient transport, HttpRequest request, GatewayCall<String> call) {
        exchange.streamLines(transport, request, info -> new Lines(call), "\n", error -> {
            if (!exchange.isAborted()) {
                call.fail(error);
            }
        });
    }

    /** Closes the connection, whatever stage the exchange is in. Idempotent; safe from any thread. */
    void abort() {
        exchange.abort();
    }

    private final class Lines implements Flow.Subscriber<String> {
        private final GatewayCall<String> call;
        private Flow.Subscription subscription;

        Lines(GatewayCall<String> call) {
            this.call = call;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            if (exchange.attach(s)) {
                subscription = s;
                s.request(StreamingExchange.LINES_AHEAD);
            }
        }

        @Override
        public void onNext(String line) {
            if (!exchange.isAborted() && !line.isBlank()) {
                call.next(line);
            }
            call.whenRoom(() -> subscription.request(1));
        }

        @Override
        public void onError(Throwable error) {
            if (!exchange.isAborted()) {
                call.fail(error);
            }
        }

        @Override
        public void onComplete() {
            if (!exchange.isAborted()) {
                call.end();
            }
        }
    }
}
