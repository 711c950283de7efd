package dev.baton.providers.streaming;

import dev.baton.core.trace.TraceContextHeaders;
import dev.baton.providers.resilience.Watchdogs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * One streamed exchange on Jetty's HTTP client ({@link JettyGatewayTransport}) whose server-sent events the calling
 * thread reads itself, as a {@link PulledStream}: the data of each event ({@link SseData}), then
 * {@link SseData#END_OF_STREAM} once the provider closed the stream. Whether an end without the provider's completion
 * marker is complete is the wire's to say.
 *
 * <p>Why pulled: on the JDK client every piece of a streamed answer went from the selector thread to a body
 * subscriber's thread, through a line subscriber and a queue, to the turn's thread, with futures completed on the way
 * and a new buffer for every read. Here Jetty's selector thread parses only the response's head and, whenever the
 * socket has more, wakes the calling thread; that thread reads the socket (and decrypts) into the client's pooled
 * buffers, parses the HTTP chunks and then the events ({@link SseDataParser}) itself. A caller that does not ask for
 * more leaves the answer in the socket, and TCP holds the provider back: nothing piles up in between.
 *
 * <p>Any status but 2xx fails the stream with a {@link ProviderHttpException} carrying the headers and the body, read up
 * to {@value #ERROR_BODY_LIMIT} bytes (a longer one is cut there, and its connection closed).
 *
 * <p>Aborting, from any thread at any stage, fails the exchange, and Jetty closes the connection of a failed exchange:
 * the provider sees the disconnect whether it streams or is still silent. Once the caller has its answer, what the
 * provider still sends (the end of the chunked body after {@code [DONE]}) is read and dropped, on the caller's thread
 * when it has come already, else on the selector thread when it comes, and the connection serves the next call; a
 * provider that sends more than {@value #LEFTOVER_LIMIT} bytes or does not end within {@link #LEFTOVER_GRACE} has its
 * connection closed instead.
 */
public final class PulledSseExchange implements PulledStream<SseData> {

    static final int ERROR_BODY_LIMIT = 64 * 1024;
    static final int LEFTOVER_LIMIT = 64 * 1024;
    static final Duration LEFTOVER_GRACE = Duration.ofSeconds(2);

    private final JettyGatewayTransport transport;
    private final AtomicBoolean aborted = new AtomicBoolean();
    /** Who waits for the response's head (or the exchange's failure). */
    private final AtomicReference<Runnable> awaitingHead = new AtomicReference<>();
    /** Whether a demand for content is registered: the body must not be read until it ran. */
    private final AtomicBoolean awaitingContent = new AtomicBoolean();

    private volatile Request request;
    private volatile Response response;
    private volatile Content.Source body;
    private volatile Throwable failure;
    private volatile ScheduledFuture<?> leftoverWatch;

    // the calling thread's alone
    private final SseDataParser events = new SseDataParser();
    private Content.Chunk current;
    private boolean ended;
    private byte[] errorBody;
    private int errorBodyLength;
    private long leftover;

    PulledSseExchange(JettyGatewayTransport transport) {
        this.transport = transport;
    }

    /**
     * Sends {@code request} (made by the transport's {@link JettyGatewayTransport#newRequest}); what comes back is
     * polled. Never throws: a failure to send is what {@link #poll} throws.
     */
    public void send(Request request) {
        this.request = request;
        // abort() may have run already; it aborts a request it sees, and Jetty never sends an aborted one
        if (aborted.get()) return;
        if (TraceContextHeaders.present()) request.headers(fields -> TraceContextHeaders.inject(fields::put));
        if (!transport.admit(this)) {
            failure = new IOException("the model gateway is closed");
            return;
        }
        try {
            request.send(new Listener());
        } catch (RuntimeException e) {
            failure = e;
            transport.ended(this);
        }
    }

    @Override
    public SseData poll() throws Exception {
        Content.Source source = body;
        if (source == null) {
            Throwable f = failure;
            if (f != null) throw rethrowable(f);
            return null;
        }
        if (awaitingContent.get()) return null;
        int status = response.getStatus();
        return status >= 200 && status < 300 ? nextEvent(source) : errorBody(source);
    }

    private SseData nextEvent(Content.Source source) throws Exception {
        while (true) {
            if (current != null) {
                SseData event = events.next(current.getByteBuffer());
                if (event != null) return event;
                boolean last = current.isLast();
                current.release();
                current = null;
                if (last) {
                    ended = true;
                    SseData unfinished = events.end();
                    if (unfinished != null) return unfinished;
                }
            }
            if (ended) return SseData.END_OF_STREAM;
            Content.Chunk chunk = source.read();
            if (chunk == null) return null;
            if (Content.Chunk.isFailure(chunk)) throw rethrowable(chunk.getFailure());
            current = chunk;
        }
    }

    /** Reads the body of a failed status, then fails with it. */
    private SseData errorBody(Content.Source source) throws Exception {
        if (errorBody == null) errorBody = new byte[ERROR_BODY_LIMIT];
        while (true) {
            Content.Chunk chunk = source.read();
            if (chunk == null) return null;
            if (Content.Chunk.isFailure(chunk)) throw rethrowable(chunk.getFailure());
            ByteBuffer bytes = chunk.getByteBuffer();
            int taken = Math.min(bytes.remaining(), ERROR_BODY_LIMIT - errorBodyLength);
            bytes.get(errorBody, errorBodyLength, taken);
            errorBodyLength += taken;
            boolean cut = bytes.hasRemaining();
            ended = chunk.isLast();
            chunk.release();
            if (ended || cut) {
                var text = new String(errorBody, 0, errorBodyLength, StandardCharsets.UTF_8);
                throw new ProviderHttpException(response.getStatus(), text, headers(response));
            }
        }
    }

    @Override
    public void demand(Runnable ready) {
        Content.Source source = body;
        if (source == null) {
            awaitingHead.set(ready);
            // the head or a failure may have come since poll() looked
            if (body != null || failure != null) wakeHeadWaiter();
            return;
        }
        if (!awaitingContent.compareAndSet(false, true)) return;
        // it only wakes the caller: the selector thread may run it rather than hand it to another thread
        source.demand(Invocable.from(Invocable.InvocationType.NON_BLOCKING, () -> {
            awaitingContent.set(false);
            ready.run();
        }));
    }

    @Override
    public void finish(boolean answered) {
        if (current != null) {
            current.release();
            current = null;
        }
        if (answered && !ended && body != null) dropLeftover();
    }

    /** Reads and drops what the provider sends after the answer: what has come now, the rest as it comes. */
    private void dropLeftover() {
        Content.Source source = body;
        while (true) {
            Content.Chunk chunk = source.read();
            if (chunk == null) {
                if (leftoverWatch == null) leftoverWatch = Watchdogs.after(LEFTOVER_GRACE, this::abort);
                source.demand(Invocable.from(Invocable.InvocationType.NON_BLOCKING, this::dropLeftover));
                return;
            }
            leftover += chunk.remaining();
            boolean failed = Content.Chunk.isFailure(chunk);
            boolean last = chunk.isLast();
            chunk.release();
            if (failed || leftover > LEFTOVER_LIMIT) abort();
            // the exchange ends with the last chunk or the abort; onComplete cancels the watch
            if (failed || last || leftover > LEFTOVER_LIMIT) return;
        }
    }

    /** Closes the connection, whatever stage the exchange is in. Idempotent; safe from any thread. */
    public void abort() {
        if (!aborted.compareAndSet(false, true)) return;
        Request sent = request;
        if (sent != null) sent.abort(new CancellationException("the model call was aborted"));
    }

    private void wakeHeadWaiter() {
        Runnable waiter = awaitingHead.getAndSet(null);
        if (waiter != null) waiter.run();
    }

    private static Map<String, List<String>> headers(Response response) {
        var headers = new LinkedHashMap<String, List<String>>();
        for (HttpField field : response.getHeaders()) {
            headers.computeIfAbsent(field.getName(), name -> new ArrayList<>()).add(field.getValue());
        }
        return headers;
    }

    private static Exception rethrowable(Throwable failure) {
        if (failure instanceof Exception e) return e;
        if (failure instanceof Error e) throw e;
        return new IOException(failure);
    }

    /** Jetty's callbacks, on its selector thread: each only records what came and wakes the caller. */
    private final class Listener implements Response.ContentSourceListener, Response.CompleteListener {
        @Override
        public void onContentSource(Response head, Content.Source content) {
            response = head;
            body = content;
            wakeHeadWaiter();
        }

        @Override
        public void onComplete(Result result) {
            if (result.isFailed()) failure = result.getFailure();
            ScheduledFuture<?> watch = leftoverWatch;
            if (watch != null) watch.cancel(false);
            transport.ended(PulledSseExchange.this);
            wakeHeadWaiter();
        }
    }
}
