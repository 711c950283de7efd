package dev.baton.providers.streaming;

import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParsingHandle;
import java.util.concurrent.Flow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the lines of a streamed response body into server-sent events. Driven by the JDK client's push
 * ({@code BodySubscribers.fromLineSubscriber}) rather than a blocking reader, so that aborting the exchange
 * never leaves a thread parked in {@code read()}. Lines are asked for a few at a time, as the model call makes room for
 * them, so a call whose caller is held up stops reading the provider's stream.
 */
final class SseLineSubscriber implements Flow.Subscriber<String> {

    private static final Logger log = LoggerFactory.getLogger(SseLineSubscriber.class);

    private final CancellableHttpClient exchange;
    private final ServerSentEventListener listener;
    private final ServerSentEventContext context;
    private final StringBuilder data = new StringBuilder();
    private String eventType;
    private Flow.Subscription subscription;

    SseLineSubscriber(CancellableHttpClient exchange, ServerSentEventListener listener) {
        this.exchange = exchange;
        this.listener = listener;
        this.context = new ServerSentEventContext(new ServerSentEventParsingHandle() {
            @Override
            public void cancel() {
                exchange.abort();
            }

            @Override
            public boolean isCancelled() {
                return exchange.isAborted();
            }
        });
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        exchange.attach(subscription);
        // a few lines ahead, then one more per line once the model call has room for what they carry
        subscription.request(StreamingExchange.LINES_AHEAD);
    }

    @Override
    public void onNext(String line) {
        if (exchange.isAborted()) {
            return;
        }
        if (line.isEmpty()) {
            dispatch();
        } else if (line.startsWith("data:")) {
            var value = line.substring("data:".length());
            // the SSE spec strips exactly one leading space
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (!data.isEmpty()) {
                data.append('\n');
            }
            data.append(value);
        } else if (line.startsWith("event:")) {
            eventType = line.substring("event:".length()).trim();
        }
        // comments (":...") and the id/retry fields mean nothing to a chat completion stream
        exchange.whenRoom(() -> subscription.request(1));
    }

    @Override
    public void onError(Throwable error) {
        exchange.finishWithError(error);
    }

    @Override
    public void onComplete() {
        if (!exchange.isAborted()) {
            dispatch();
        }
        exchange.finishNormally(listener);
    }

    private void dispatch() {
        if (data.isEmpty()) {
            eventType = null;
            return;
        }
        var event = new ServerSentEvent(eventType, data.toString());
        eventType = null;
        data.setLength(0);
        exchange.observe(event);
        try {
            listener.onEvent(event, context);
        } catch (RuntimeException e) {
            // LangChain4j reports its own parsing failures through onError; this only guards the stream
            log.debug("SSE listener failed on an event", e);
        }
    }
}
