package dev.baton.testkit.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.util.Callback;

/**
 * One request's answer on an {@link H2cConnection}, read as Server-Sent Events. Its {@link #ended()} completes with
 * {@code "done"}, {@code "error: <data>"} (the turn's {@code done} or {@code error} event), {@code "status <code>:
 * <body>"} (a response other than 200), or why the stream stopped before either ({@code "reset…"}, {@code
 * "closed before done"}, a failure). Times are in nanoseconds from the request, -1 until reached.
 */
public final class SseStream {
    /** One event: its {@code event:} name and its {@code data:} line. */
    public record Event(String type, String data) {}

    /** The response's status line: its status and protocol version. */
    public record Response(int status, HttpVersion version) {}

    private final boolean reading;
    private final long start = System.nanoTime();
    private final CompletableFuture<Response> response = new CompletableFuture<>();
    private final CompletableFuture<String> ended = new CompletableFuture<>();
    private final List<Event> events = new ArrayList<>();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private String eventType;
    private final CompletableFuture<Stream> stream = new CompletableFuture<>();
    private volatile long headersNanos = -1;
    private volatile long firstChunkNanos = -1;
    private volatile long endNanos = -1;

    SseStream(boolean reading) {
        this.reading = reading;
    }

    /** Completes with the response's headers. */
    public CompletableFuture<Response> response() {
        return response;
    }

    /** Completes when the answer ended, with how (see the class comment). */
    public CompletableFuture<String> ended() {
        return ended;
    }

    /** The events read so far. */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    public long headersNanos() {
        return headersNanos;
    }

    public long firstChunkNanos() {
        return firstChunkNanos;
    }

    public long endNanos() {
        return endNanos;
    }

    /** The client goes away: resets the stream ({@code CANCEL}), as a browser does when its page closes. */
    public void cancel() {
        stream.thenAccept(s -> s.reset(new ResetFrame(s.getId(), ErrorCode.CANCEL_STREAM_ERROR.code), Callback.NOOP));
    }

    void opened(Stream s) {
        stream.complete(s);
    }

    void failed(Throwable failure) {
        end("failure: " + failure);
    }

    private void end(String how) {
        if (ended.isDone()) return;
        endNanos = System.nanoTime() - start;
        response.completeExceptionally(new IllegalStateException("no response: " + how));
        ended.complete(how);
    }

    Stream.Listener listener() {
        return new Stream.Listener() {
            @Override
            public void onHeaders(Stream stream, HeadersFrame frame) {
                if (frame.getMetaData() instanceof MetaData.Response r) {
                    headersNanos = System.nanoTime() - start;
                    response.complete(new Response(r.getStatus(), r.getHttpVersion()));
                }
                if (frame.isEndStream()) end(endWithoutDone());
                else if (reading || response.join().status() != 200) stream.demand();
            }

            @Override
            public void onDataAvailable(Stream stream) {
                Stream.Data data = stream.readData();
                if (data == null) {
                    stream.demand();
                    return;
                }
                take(data.frame().getByteBuffer());
                data.release();
                if (data.frame().isEndStream()) end(endWithoutDone());
                else stream.demand();
            }

            @Override
            public void onReset(Stream stream, ResetFrame frame, Callback callback) {
                end("reset by the server: " + ErrorCode.toString(frame.getError(), "error " + frame.getError()));
                callback.succeeded();
            }

            @Override
            public void onFailure(Stream stream, int error, String reason, Throwable failure, Callback callback) {
                end("failure: " + reason + " " + failure);
                callback.succeeded();
            }

            @Override
            public void onClosed(Stream stream) {
                // a reset closes the stream before the listener hears of the reset itself. A stream closes as soon as
                // its last frame arrives, before a reader has taken that frame's data (a server may send its last event
                // in it): a stream that is read ends where its last frame is read, in onDataAvailable or
                // onHeaders
                if (stream.isReset()) end("reset");
                else if (!reading) end(endWithoutDone());
            }
        };
    }

    /** How the stream ended without a done or error event. */
    private String endWithoutDone() {
        int status = response.isDone() && !response.isCompletedExceptionally()
                ? response.join().status()
                : 0;
        if (status != 200 && status != 0) return "status " + status + ": " + line.toString(StandardCharsets.UTF_8);
        return "closed before done";
    }

    /** SSE lines out of one DATA frame (only one thread reads a stream at a time). */
    private void take(ByteBuffer bytes) {
        boolean ok = response.join().status() == 200;
        while (bytes.hasRemaining()) {
            byte b = bytes.get();
            if (!ok) {
                line.write(b); // an error's body, whole
            } else if (b == '\n') {
                lineRead(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else if (b != '\r') {
                line.write(b);
            }
        }
    }

    private void lineRead(String text) {
        if (text.startsWith("event: ")) {
            eventType = text.substring(7);
        } else if (text.startsWith("data: ") && eventType != null) {
            String data = text.substring(6);
            synchronized (this) {
                events.add(new Event(eventType, data));
            }
            if (eventType.equals("chunk") && firstChunkNanos < 0) firstChunkNanos = System.nanoTime() - start;
            if (eventType.equals("done")) end("done");
            else if (eventType.equals("error")) end("error: " + data);
        } else if (text.isEmpty()) {
            eventType = null;
        }
    }
}
