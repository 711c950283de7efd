package dev.baton.providers.streaming;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.concurrent.Flow;

/**
 * One streamed exchange of server-sent events whose {@code data} go to a {@link GatewayCall} for the calling thread,
 * one string per event (multi-line data joined with {@code \n}, as the SSE spec says), and which can be aborted from
 * any thread at any stage, closing the connection so the provider stops generating. When the stream ends, the call
 * gets {@link #END_OF_STREAM} (compare by identity): whether an end without the provider's completion marker is
 * complete is the wire's to say.
 */
public final class SseDataExchange {

    /** What the call gets once the provider closed the stream. */
    @SuppressWarnings("StringOperationCanBeSimplified") // a distinct instance, so no provider's data can equal it
    public static final String END_OF_STREAM = new String("end of stream");

    private final StreamingExchange exchange = new StreamingExchange();

    public void start(HttpClient transport, HttpRequest request, GatewayCall<String> call) {
        exchange.streamLines(transport, request, info -> new Events(call), null, error -> {
            if (!exchange.isAborted()) call.fail(error);
        });
    }

    /** Closes the connection, whatever stage the exchange is in. Idempotent; safe from any thread. */
    public void abort() {
        exchange.abort();
    }

    private final class Events implements Flow.Subscriber<String> {
        private final GatewayCall<String> call;
        private final StringBuilder data = new StringBuilder();
        private boolean hasData;
        private Flow.Subscription subscription;

        Events(GatewayCall<String> call) {
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
            if (exchange.isAborted()) return;
            if (line.isEmpty()) {
                dispatch();
            } else if (line.startsWith("data:")) {
                // the SSE spec strips exactly one leading space
                int from = line.length() > 5 && line.charAt(5) == ' ' ? 6 : 5;
                if (hasData) data.append('\n');
                data.append(line, from, line.length());
                hasData = true;
            }
            // comments (":...") and the event, id and retry fields mean nothing to a chat completion stream
            call.whenRoom(() -> subscription.request(1));
        }

        private void dispatch() {
            if (!hasData) return;
            call.next(data.toString());
            data.setLength(0);
            hasData = false;
        }

        @Override
        public void onError(Throwable error) {
            if (!exchange.isAborted()) call.fail(error);
        }

        @Override
        public void onComplete() {
            if (exchange.isAborted()) return;
            dispatch(); // a last event without its blank line
            call.next(END_OF_STREAM);
            call.end();
        }
    }
}
