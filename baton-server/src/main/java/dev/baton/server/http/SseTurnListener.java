package dev.baton.server.http;

import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.TurnListener;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpChannel;

/**
 * Streams a turn as Server-Sent Events: the stream starts once the turn is admitted (refusals before that are
 * plain JSON errors), each event is written by the front door's {@link Encoder}, and a client that goes away cancels
 * the turn. Each stream buffers a bounded number of bytes ({@link SseStreams}): a client that stops reading stalls its
 * own turn until the turn's deadline. Close it when the send returns, whatever happened: that writes what is still
 * buffered and stops the heartbeat.
 */
public final class SseTurnListener implements TurnListener, AutoCloseable {

    /** Writes one turn event in a front door's SSE wire (Baton's own, or a design's). */
    @FunctionalInterface
    public interface Encoder {
        void send(SseWriter writer, TurnEvent event);
    }

    /** How long a write may stay blocked after the turn was cancelled before the connection is closed under it. */
    private static final Duration BLOCKED_WRITE_GRACE = Duration.ofSeconds(1);

    private final Context ctx;
    private final SseStreams streams;
    private final Encoder encoder;
    private final boolean cancelOnDisconnect;
    private SseWriter writer;

    /** A stream whose client going away cancels the turn. */
    public SseTurnListener(Context ctx, SseStreams streams, Encoder encoder) {
        this(ctx, streams, encoder, true);
    }

    /** @param cancelOnDisconnect false when the turn should run on for a client that will take the stream up again */
    public SseTurnListener(Context ctx, SseStreams streams, Encoder encoder, boolean cancelOnDisconnect) {
        this.ctx = ctx;
        this.streams = streams;
        this.encoder = encoder;
        this.cancelOnDisconnect = cancelOnDisconnect;
    }

    @Override
    public void admitted(AdmittedTurn turn) {
        turn.rate().quotaFields().forEach(ctx::header);
        ctx.status(200);
        ctx.contentType("text/event-stream; charset=utf-8");
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Accel-Buffering", "no");
        try {
            Runnable onDisconnect = cancelOnDisconnect ? turn.cancellation()::cancel : () -> {};
            writer = streams.open(ctx.res().getOutputStream(), onDisconnect, () -> abort(ctx));
        } catch (IOException e) {
            turn.cancellation().cancel();
            throw new UncheckedIOException(e);
        }
        SseWriter w = writer;
        // a deadline or a cancel must end the turn even while a write to a client that stopped reading blocks
        turn.cancellation().onCancel(() -> w.abortIfBlocked(BLOCKED_WRITE_GRACE));
    }

    /**
     * Ends the request's stream under a blocked write, which then fails at once: over HTTP/1.1 by closing its
     * connection; over HTTP/2 by failing this request alone, which resets its stream, because the connection carries
     * other clients' streams (a reset stream's blocked write fails once the reset is sent, whatever the flow-control
     * window).
     */
    private static void abort(Context ctx) {
        IOException cancelled = new IOException("the turn was cancelled while the client was not reading");
        ServletContextRequest request = ServletContextRequest.getServletContextRequest(ctx.req());
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2) {
            Runnable failWrite = HttpChannel.from(request).onFailure(cancelled);
            if (failWrite != null) failWrite.run();
        } else {
            request.getServletChannel().getEndPoint().close(cancelled);
        }
    }

    @Override
    public void onEvent(TurnEvent event) {
        if (writer != null) encoder.send(writer, event);
    }

    @Override
    public void close() {
        if (writer != null) writer.close();
    }
}
