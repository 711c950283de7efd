package dev.baton.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Plays one chat answer (or fault) onto a connection, streaming or not, with pacing, in the request's
 * {@link WireFormat}.
 */
final class CompletionPlayer {

    /** How an answer ended, which decides whether the connection can serve another request. */
    enum Outcome {
        /** The response was written completely. */
        ANSWERED,
        /** The client closed the connection before the response was complete. */
        CLIENT_GONE,
        /** The simulator dropped the connection on purpose, or because it is closing. */
        DROPPED
    }

    private static final Map<String, String> JSON_HEADERS = Map.of("Content-Type", "application/json");
    /** Content frames written between two yields of the carrier thread. */
    private static final int YIELD_EVERY = 32;

    private final ClientConnection connection;
    private final RecordedRequest request;
    private final WireFormat format;
    private final long sequence;
    private final ChatWire.CompletionId id;
    private final BooleanSupplier closing;
    private final boolean keepAlive;

    CompletionPlayer(
            ClientConnection connection,
            RecordedRequest request,
            WireFormat format,
            long sequence,
            ChatWire.CompletionId id,
            BooleanSupplier closing,
            boolean keepAlive) {
        this.connection = connection;
        this.request = request;
        this.format = format;
        this.sequence = sequence;
        this.id = id;
        this.closing = closing;
        this.keepAlive = keepAlive;
    }

    Outcome play(Reply reply, Pacing pacing, String fallback) throws IOException {
        return switch (reply) {
            case Reply.Failure failure ->
                playFault(
                        failure.fault(), failure.partial() == null ? Reply.text(fallback) : failure.partial(), pacing);
            case Reply.Text text -> answer(text, pacing, Interruption.NONE);
            case Reply.ToolCalls calls -> answer(calls, pacing, Interruption.NONE);
        };
    }

    /** Something that happens to a stream after a number of content chunks. */
    private record Interruption(
            int dropAfter, int malformedAfter, int errorAfter, Fault.StreamError error, Fault.HoldAfter hold) {
        static final Interruption NONE = new Interruption(-1, -1, -1, null, null);

        Interruption(int dropAfter, int malformedAfter, int errorAfter, Fault.StreamError error) {
            this(dropAfter, malformedAfter, errorAfter, error, null);
        }
    }

    private Outcome playFault(Fault fault, Reply partial, Pacing pacing) throws IOException {
        return switch (fault) {
            case Fault.HttpError error -> {
                sendJson(
                        error.status(),
                        JSON_HEADERS,
                        format.error(error.status(), error.type(), error.code(), error.message()));
                yield Outcome.ANSWERED;
            }
            case Fault.GoogleError error -> {
                connection.sendFixed(error.status(), JSON_HEADERS, GoogleErrorBody.bytes(error), keepAlive);
                yield Outcome.ANSWERED;
            }
            case Fault.RateLimited limited -> {
                var headers = new LinkedHashMap<String, String>(JSON_HEADERS);
                headers.putAll(format.rateLimitHeaders(limited.retryAfterSeconds()));
                sendJson(429, headers, format.rateLimitError(limited.retryAfterSeconds()));
                yield Outcome.ANSWERED;
            }
            case Fault.Hang hang -> connection.awaitClientGone(closing) ? Outcome.CLIENT_GONE : Outcome.DROPPED;
            case Fault.HoldAfter hold -> {
                if (!request.stream()) {
                    if (!connection.awaitRelease(hold.release(), closing)) {
                        yield closing.getAsBoolean() ? Outcome.DROPPED : Outcome.CLIENT_GONE;
                    }
                    yield answer(partial, pacing, Interruption.NONE);
                }
                yield answer(partial, pacing, new Interruption(-1, -1, -1, null, hold));
            }
            case Fault.DisconnectAfter drop -> {
                if (!request.stream()) {
                    yield Outcome.DROPPED;
                }
                yield answer(partial, pacing, new Interruption(drop.chunks(), -1, -1, null));
            }
            case Fault.MalformedChunk malformed -> {
                if (!request.stream()) {
                    connection.sendFixed(200, JSON_HEADERS, "{not json".getBytes(StandardCharsets.UTF_8), keepAlive);
                    yield Outcome.ANSWERED;
                }
                yield answer(partial, pacing, new Interruption(-1, malformed.afterChunks(), -1, null));
            }
            case Fault.StreamError error -> {
                if (!request.stream()) {
                    sendJson(
                            error.status(),
                            JSON_HEADERS,
                            format.error(error.status(), error.type(), null, error.message()));
                    yield Outcome.ANSWERED;
                }
                yield answer(partial, pacing, new Interruption(-1, -1, error.afterChunks(), error));
            }
        };
    }

    private Outcome answer(Reply reply, Pacing pacing, Interruption interruption) throws IOException {
        var text = reply instanceof Reply.ToolCalls c ? c.text() : ((Reply.Text) reply).content();
        var calls = reply instanceof Reply.ToolCalls c ? c.calls() : List.<Reply.ToolCall>of();
        var override = reply instanceof Reply.ToolCalls c ? c.usage() : ((Reply.Text) reply).usage();
        var usage = ChatWire.usage(request, text, calls, override);
        var callIds = new ArrayList<String>();
        for (int i = 0; i < calls.size(); i++) {
            callIds.add(format.callId(sequence, i));
        }
        var answer = new WireFormat.Answer(id, text, calls, callIds, usage);
        if (!request.stream()) {
            var wait = pacing.firstTokenLatency().plus(pacing.delayFor(usage.completionTokens()));
            if (!connection.pause(wait)) {
                return Outcome.CLIENT_GONE;
            }
            sendJson(200, JSON_HEADERS, format.completion(answer));
            return Outcome.ANSWERED;
        }
        return stream(format.stream(answer, pacing.chunkSize(), request.includeUsage()), pacing, interruption);
    }

    private Outcome stream(Stream<WireFormat.Frame> stream, Pacing pacing, Interruption interruption)
            throws IOException {
        Iterable<WireFormat.Frame> frames = stream::iterator;
        if (!connection.pause(pacing.firstTokenLatency())) {
            return Outcome.CLIENT_GONE;
        }
        try {
            connection.startChunked(
                    200, Map.of("Content-Type", format.streamContentType(), "Cache-Control", "no-cache"), keepAlive);
            int sent = 0;
            boolean tailReached = false;
            for (var frame : frames) {
                if (frame.kind() == WireFormat.FrameKind.CONTENT
                        || (frame.kind() == WireFormat.FrameKind.TAIL && !tailReached)) {
                    tailReached = frame.kind() == WireFormat.FrameKind.TAIL;
                    var interrupted = interruptAt(sent, interruption);
                    if (interrupted != null) {
                        return interrupted;
                    }
                }
                if (frame.kind() == WireFormat.FrameKind.CONTENT) {
                    if (sent > 0 && !connection.pause(pacing.delayFor(frame.tokens()))) {
                        return Outcome.CLIENT_GONE;
                    }
                    sent++;
                    // an unpaced answer to a client that keeps up never blocks its virtual thread: let the other
                    // requests' threads have the carrier now and then, or a huge answer holds up every other one
                    if (sent % YIELD_EVERY == 0) Thread.yield();
                }
                connection.writeChunk(frame.text());
            }
            connection.endChunked();
            return Outcome.ANSWERED;
        } catch (IOException e) {
            // A write failing mid-stream is how a client that left shows itself.
            return closing.getAsBoolean() ? Outcome.DROPPED : Outcome.CLIENT_GONE;
        }
    }

    /** Applies the interruption due after {@code sent} content chunks; null when the stream goes on. */
    private Outcome interruptAt(int sent, Interruption interruption) throws IOException {
        if (sent == interruption.dropAfter()) {
            connection.close();
            return Outcome.DROPPED;
        }
        if (sent == interruption.malformedAfter()) {
            connection.writeChunk(format.malformedFrame());
        }
        if (interruption.hold() != null && sent == interruption.hold().chunks()) {
            if (!connection.awaitRelease(interruption.hold().release(), closing)) {
                return closing.getAsBoolean() ? Outcome.DROPPED : Outcome.CLIENT_GONE;
            }
        }
        if (sent == interruption.errorAfter()) {
            var error = interruption.error();
            connection.writeChunk(format.streamErrorFrame(error.type(), error.message()));
            connection.endChunked();
            return Outcome.ANSWERED;
        }
        return null;
    }

    private void sendJson(int status, Map<String, String> headers, ObjectNode body) throws IOException {
        connection.sendFixed(status, headers, ChatWire.bytes(body), keepAlive);
    }
}
