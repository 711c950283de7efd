package dev.baton.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** OpenAI Chat Completions: {@code data:} events, a role chunk first, {@code data: [DONE]} last. */
final class OpenAiFormat implements WireFormat {

    static final OpenAiFormat INSTANCE = new OpenAiFormat();

    private OpenAiFormat() {}

    @Override
    public String completionId(long sequence) {
        return "chatcmpl-sim-" + sequence;
    }

    @Override
    public String callId(long sequence, int index) {
        return "call_" + sequence + "_" + index;
    }

    @Override
    public String streamContentType() {
        return "text/event-stream; charset=utf-8";
    }

    @Override
    public ObjectNode error(int status, String type, String code, String message) {
        return ChatWire.error(message, type, code);
    }

    @Override
    public Map<String, String> rateLimitHeaders(int retryAfterSeconds) {
        var seconds = Integer.toString(retryAfterSeconds);
        return Map.of("Retry-After", seconds, "x-ratelimit-reset-requests", seconds + "s");
    }

    @Override
    public ObjectNode rateLimitError(int retryAfterSeconds) {
        return ChatWire.error(
                "Rate limit reached (simulated). Please try again in " + retryAfterSeconds + "s.",
                "requests",
                "rate_limit_exceeded");
    }

    @Override
    public ObjectNode completion(Answer answer) {
        return ChatWire.completion(answer.id(), answer.text(), answer.calls(), answer.callIds(), answer.usage());
    }

    @Override
    public Stream<Frame> stream(Answer answer, int chunkSize, boolean includeUsage) {
        var id = answer.id();
        var head = head(ChatWire.chunk(id, ChatWire.roleDelta(!answer.text().isEmpty()), null, includeUsage));
        var text = DeltaSplitter.wordStream(answer.text(), chunkSize)
                .map(piece -> content(ChatWire.chunk(id, ChatWire.textDelta(piece), null, includeUsage), piece));
        // the calls and the tail are small: rendered when the text is done
        return Stream.concat(
                Stream.concat(Stream.of(head), text),
                Stream.of(answer).flatMap(a -> rest(a, chunkSize, includeUsage).stream()));
    }

    private static List<Frame> rest(Answer answer, int chunkSize, boolean includeUsage) {
        var id = answer.id();
        var frames = new ArrayList<Frame>();
        var calls = answer.calls();
        for (int i = 0; i < calls.size(); i++) {
            var start = ChatWire.toolCallStartDelta(
                    i, answer.callIds().get(i), calls.get(i).name());
            frames.add(content(ChatWire.chunk(id, start, null, includeUsage), ""));
            for (var fragment : DeltaSplitter.fragments(calls.get(i).argumentsJson(), chunkSize)) {
                var delta = ChatWire.toolCallArgumentsDelta(i, fragment);
                frames.add(content(ChatWire.chunk(id, delta, null, includeUsage), fragment));
            }
        }
        var finish = ChatWire.chunk(id, ChatWire.JSON.createObjectNode(), ChatWire.finishReason(calls), includeUsage);
        frames.add(new Frame(FrameKind.TAIL, ChatWire.sse(finish), 0));
        if (includeUsage) {
            frames.add(new Frame(FrameKind.TAIL, ChatWire.sse(ChatWire.usageChunk(id, answer.usage())), 0));
        }
        frames.add(new Frame(FrameKind.TAIL, "data: [DONE]\n\n", 0));
        return frames;
    }

    @Override
    public String malformedFrame() {
        return "data: {not json\n\n";
    }

    @Override
    public String streamErrorFrame(String type, String message) {
        return ChatWire.sse(ChatWire.error(message, type, null));
    }

    private static Frame head(ObjectNode chunk) {
        return new Frame(FrameKind.HEAD, ChatWire.sse(chunk), 0);
    }

    private static Frame content(ObjectNode chunk, String carried) {
        return new Frame(
                FrameKind.CONTENT, ChatWire.sse(chunk), Math.max(1, ChatWire.estimateTokens(carried.length())));
    }
}
