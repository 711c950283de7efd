package dev.baton.providers.anthropic;

import dev.baton.providers.streaming.CancellableHttpClient;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;

/**
 * Makes LangChain4j's Anthropic listener report every broken stream. It completes only on {@code message_stop}
 * and ignores the end of the body, so a stream that closed cleanly without it would leave the call waiting for
 * its deadline; here it fails at once. An event it cannot parse fails the call too, and closes the connection.
 */
final class MessageStopGuard implements HttpClient {

    private final CancellableHttpClient exchange;

    MessageStopGuard(CancellableHttpClient exchange) {
        this.exchange = exchange;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        return exchange.execute(request);
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        exchange.execute(request, parser, new ServerSentEventListener() {
            @Override
            public void onOpen(SuccessfulHttpResponse response) {
                listener.onOpen(response);
            }

            @Override
            public void onEvent(ServerSentEvent event) {
                listener.onEvent(event);
            }

            @Override
            public void onEvent(ServerSentEvent event, ServerSentEventContext context) {
                try {
                    listener.onEvent(event, context);
                } catch (RuntimeException e) {
                    // LangChain4j's Anthropic listener throws on an event it cannot parse instead of reporting
                    // it; the cancellable client would swallow that and read on as if nothing happened
                    listener.onError(e);
                    exchange.abort();
                }
            }

            @Override
            public void onError(Throwable error) {
                listener.onError(error);
            }

            @Override
            public void onClose() {
                if (exchange.completionMarkerSeen()) {
                    listener.onClose();
                } else {
                    listener.onError(new IOException("the stream ended before message_stop"));
                }
            }
        });
    }
}
