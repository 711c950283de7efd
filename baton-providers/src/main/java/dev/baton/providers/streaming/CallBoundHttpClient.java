package dev.baton.providers.streaming;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The HTTP client of a LangChain4j model that a gateway builds once and shares between calls. Each call still needs a
 * client of its own (a {@link CancellableHttpClient}, to abort exactly that call), so the call binds it to its thread
 * with {@link #during}: LangChain4j sends the request from the thread that called the model, and that is the thread
 * the binding is seen on.
 *
 * <p>Why not a model per call: building one looks LangChain4j's service providers up on the class path (jar entry
 * reads) and copies its settings, every call; that was a tenth of a turn's CPU.
 */
public final class CallBoundHttpClient implements HttpClient {

    private final ThreadLocal<HttpClient> bound = new ThreadLocal<>();

    /** Runs {@code work} (which calls the model) with {@code call} as the client its requests go through. */
    public <T> T during(HttpClient call, Supplier<T> work) {
        Objects.requireNonNull(call, "call");
        HttpClient outer = bound.get();
        bound.set(call);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                bound.remove();
            } else {
                bound.set(outer);
            }
        }
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        return current().execute(request);
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        current().execute(request, parser, listener);
    }

    private HttpClient current() {
        HttpClient call = bound.get();
        if (call == null) {
            throw new IllegalStateException("no model call is bound to this thread: the model sends from the caller's");
        }
        return call;
    }
}
