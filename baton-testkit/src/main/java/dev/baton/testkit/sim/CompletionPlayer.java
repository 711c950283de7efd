package dev.baton.testkit.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Plays one chat-completion answer (or fault) onto a connection, streaming or not, with pacing. */
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

    private static final String MALFORMED_EVENT = "data: {not json\n\n";
    private static final Map<String, String> SSE_HEADERS =
            Map.of("Content-Type", "text/event-stream; charset=utf-8", "Cache-Control", "no-cache");
    private static final Map<String, String> JSON_HEADERS = Map.of("Content-Type", "application/json");

    private final ClientConnection connection;
    private final RecordedRequest request;
    private final ChatWire.CompletionId id;
    private final BooleanSupplier closing;
    private final boolean keepAlive;

    CompletionPlayer(
            ClientConnection connection,
            RecordedRequest request,
            ChatWire.CompletionId id,
            BooleanSupplier closing,
            boolean keepAlive) {
        this.connection = connection;
        this.request = request;
        this.id = id;
        this.closing = closing;
        this.keepAlive = keepAlive;
    }

    Outcome play(Reply reply, Pacing pacing, String fallback) throws IOException {
        return switch (reply) {
            case Reply.Failure failure ->
                playFault(
                        failure.fault(), failure.partial() == null ? Reply.text(fallback) : failure.partial(), pacing);
            case Reply.Text text -> answer(text, pacing, -1, -1);
            case Reply.ToolCalls calls -> answer(calls, pacing, -1, -1);
        };
    }

    private Outcome playFault(Fault fault, Reply partial, Pacing pacing) throws IOException {
        return switch (fault) {
            case Fault.HttpError error -> {
                sendJson(error.status(), JSON_HEADERS, ChatWire.error(error.message(), error.type(), error.code()));
                yield Outcome.ANSWERED;
            }
            case Fault.RateLimited limited -> {
                var seconds = Integer.toString(limited.retryAfterSeconds());
                sendJson(
                        429,
                        Map.of(
                                "Content-Type",
                                "application/json",
                                "Retry-After",
                                seconds,
                                "x-ratelimit-reset-requests",
                                seconds + "s"),
                        ChatWire.error(
                                "Rate limit reached (simulated). Please try again in " + seconds + "s.",
                                "requests",
                                "rate_limit_exceeded"));
                yield Outcome.ANSWERED;
            }
            case Fault.Hang hang -> connection.awaitClientGone(closing) ? Outcome.CLIENT_GONE : Outcome.DROPPED;
            case Fault.DisconnectAfter drop -> {
                if (!request.stream()) {
                    yield Outcome.DROPPED;
                }
                yield answer(partial, pacing, drop.chunks(), -1);
            }
            case Fault.MalformedChunk malformed -> {
                if (!request.stream()) {
                    connection.sendFixed(200, JSON_HEADERS, "{not json".getBytes(StandardCharsets.UTF_8), keepAlive);
                    yield Outcome.ANSWERED;
                }
                yield answer(partial, pacing, -1, malformed.afterChunks());
            }
        };
    }

    /**
     * @param dropAfter content chunks to send before dropping the connection; -1 for a complete answer
     * @param malformedAfter content chunks to send before the malformed event; -1 for none
     */
    private Outcome answer(Reply reply, Pacing pacing, int dropAfter, int malformedAfter) throws IOException {
        var text = reply instanceof Reply.ToolCalls c ? c.text() : ((Reply.Text) reply).content();
        var calls = reply instanceof Reply.ToolCalls c ? c.calls() : List.<Reply.ToolCall>of();
        var override = reply instanceof Reply.ToolCalls c ? c.usage() : ((Reply.Text) reply).usage();
        var usage = ChatWire.usage(request, text, calls, override);
        var callIds = new ArrayList<String>();
        for (int i = 0; i < calls.size(); i++) {
            callIds.add("call_" + id.id().substring(id.id().lastIndexOf('-') + 1) + "_" + i);
        }
        if (!request.stream()) {
            var wait = pacing.firstTokenLatency().plus(pacing.delayFor(usage.completionTokens()));
            if (!connection.pause(wait)) {
                return Outcome.CLIENT_GONE;
            }
            sendJson(200, JSON_HEADERS, ChatWire.completion(id, text, calls, callIds, usage));
            return Outcome.ANSWERED;
        }
        return stream(text, calls, callIds, usage, pacing, dropAfter, malformedAfter);
    }

    private Outcome stream(
            String text,
            List<Reply.ToolCall> calls,
            List<String> callIds,
            ChatWire.Usage usage,
            Pacing pacing,
            int dropAfter,
            int malformedAfter)
            throws IOException {
        var deltas = new ArrayList<ObjectNode>();
        for (var piece : DeltaSplitter.words(text, pacing.chunkSize())) {
            deltas.add(ChatWire.textDelta(piece));
        }
        for (int i = 0; i < calls.size(); i++) {
            deltas.add(
                    ChatWire.toolCallStartDelta(i, callIds.get(i), calls.get(i).name()));
            for (var fragment : DeltaSplitter.fragments(calls.get(i).argumentsJson(), pacing.chunkSize())) {
                deltas.add(ChatWire.toolCallArgumentsDelta(i, fragment));
            }
        }
        if (!connection.pause(pacing.firstTokenLatency())) {
            return Outcome.CLIENT_GONE;
        }
        boolean includeUsage = request.includeUsage();
        try {
            connection.startChunked(200, SSE_HEADERS, keepAlive);
            connection.writeChunk(
                    ChatWire.sse(ChatWire.chunk(id, ChatWire.roleDelta(!text.isEmpty()), null, includeUsage)));
            for (int i = 0; i <= deltas.size(); i++) {
                if (i == dropAfter) {
                    connection.close();
                    return Outcome.DROPPED;
                }
                if (i == malformedAfter) {
                    connection.writeChunk(MALFORMED_EVENT);
                }
                if (i == deltas.size()) {
                    break;
                }
                if (i > 0 && !connection.pause(pacing.delayFor(tokensIn(deltas.get(i))))) {
                    return Outcome.CLIENT_GONE;
                }
                connection.writeChunk(ChatWire.sse(ChatWire.chunk(id, deltas.get(i), null, includeUsage)));
            }
            connection.writeChunk(ChatWire.sse(
                    ChatWire.chunk(id, ChatWire.JSON.createObjectNode(), ChatWire.finishReason(calls), includeUsage)));
            if (includeUsage) {
                connection.writeChunk(ChatWire.sse(ChatWire.usageChunk(id, usage)));
            }
            connection.writeChunk("data: [DONE]\n\n");
            connection.endChunked();
            return Outcome.ANSWERED;
        } catch (IOException e) {
            // A write failing mid-stream is how a client that left shows itself.
            return closing.getAsBoolean() ? Outcome.DROPPED : Outcome.CLIENT_GONE;
        }
    }

    private static int tokensIn(ObjectNode delta) {
        var content = delta.path("content").asText("");
        var arguments = delta.path("tool_calls")
                .path(0)
                .path("function")
                .path("arguments")
                .asText("");
        return Math.max(1, ChatWire.estimateTokens(content.length() + arguments.length()));
    }

    private void sendJson(int status, Map<String, String> headers, ObjectNode body) throws IOException {
        connection.sendFixed(status, headers, ChatWire.bytes(body), keepAlive);
    }
}
