package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Anthropic Messages: named SSE events {@code message_start}, {@code content_block_start/delta/stop} (text and
 * {@code tool_use} blocks, the tool input streamed as {@code input_json_delta} fragments), {@code message_delta}
 * with the stop reason and output tokens, {@code message_stop}. Errors are {@code {"type":"error","error":
 * {"type":..., "message":...}}}, as a body or as an {@code event: error} mid-stream.
 */
final class AnthropicFormat implements WireFormat {

    static final AnthropicFormat INSTANCE = new AnthropicFormat();

    /** Anthropic's error types; a fault written with another vendor's type gets the one its status means. */
    private static final Set<String> TYPES = Set.of(
            "invalid_request_error",
            "authentication_error",
            "permission_error",
            "not_found_error",
            "request_too_large",
            "rate_limit_error",
            "api_error",
            "overloaded_error",
            "timeout_error");

    private AnthropicFormat() {}

    @Override
    public String completionId(long sequence) {
        return "msg_sim_" + sequence;
    }

    @Override
    public String callId(long sequence, int index) {
        return "toolu_sim_" + sequence + "_" + index;
    }

    @Override
    public String streamContentType() {
        return "text/event-stream; charset=utf-8";
    }

    @Override
    public ObjectNode error(int status, String type, String code, String message) {
        return errorBody(TYPES.contains(type) ? type : typeFor(status), message);
    }

    @Override
    public Map<String, String> rateLimitHeaders(int retryAfterSeconds) {
        return Map.of("retry-after", Integer.toString(retryAfterSeconds), "request-id", "req_sim");
    }

    @Override
    public ObjectNode rateLimitError(int retryAfterSeconds) {
        return errorBody(
                "rate_limit_error",
                "Number of request tokens has exceeded your per-minute rate limit (simulated); retry in "
                        + retryAfterSeconds + "s.");
    }

    @Override
    public ObjectNode completion(Answer answer) {
        var message = messageHead(answer, answer.usage().completionTokens());
        var content = message.putArray("content");
        if (!answer.text().isEmpty() || answer.calls().isEmpty()) {
            content.addObject().put("type", "text").put("text", answer.text());
        }
        for (int i = 0; i < answer.calls().size(); i++) {
            var call = answer.calls().get(i);
            var block = content.addObject();
            block.put("type", "tool_use").put("id", answer.callIds().get(i)).put("name", call.name());
            block.set("input", inputOf(call.argumentsJson()));
        }
        message.put("stop_reason", stopReason(answer.calls()));
        return message;
    }

    @Override
    public Stream<Frame> stream(Answer answer, int chunkSize, boolean includeUsage) {
        var frames = new ArrayList<Frame>();
        var start = ChatWire.JSON.createObjectNode().put("type", "message_start");
        var head = messageHead(answer, 1);
        head.putArray("content");
        head.putNull("stop_reason");
        start.set("message", head);
        frames.add(frame(FrameKind.HEAD, "message_start", start, 0));
        frames.add(
                frame(FrameKind.HEAD, "ping", ChatWire.JSON.createObjectNode().put("type", "ping"), 0));
        boolean hasText = !answer.text().isEmpty() || answer.calls().isEmpty();
        Stream<Frame> text = Stream.empty();
        if (hasText) {
            var block = ChatWire.JSON.createObjectNode().put("type", "text").put("text", "");
            frames.add(frame(FrameKind.MARK, "content_block_start", blockStart(0, block), 0));
            text = DeltaSplitter.wordStream(answer.text(), chunkSize).map(piece -> {
                var delta = ChatWire.JSON
                        .createObjectNode()
                        .put("type", "text_delta")
                        .put("text", piece);
                return frame(FrameKind.CONTENT, "content_block_delta", blockDelta(0, delta), tokens(piece));
            });
        }
        // the calls and the tail are small: rendered when the text is done
        return Stream.concat(
                Stream.concat(frames.stream(), text),
                Stream.of(answer).flatMap(a -> rest(a, chunkSize, hasText).stream()));
    }

    private List<Frame> rest(Answer answer, int chunkSize, boolean hasText) {
        var frames = new ArrayList<Frame>();
        int index = 0;
        if (hasText) {
            frames.add(frame(FrameKind.MARK, "content_block_stop", blockStop(index), 0));
            index++;
        }
        for (int i = 0; i < answer.calls().size(); i++, index++) {
            var call = answer.calls().get(i);
            var block = ChatWire.JSON
                    .createObjectNode()
                    .put("type", "tool_use")
                    .put("id", answer.callIds().get(i))
                    .put("name", call.name());
            block.putObject("input");
            frames.add(frame(FrameKind.CONTENT, "content_block_start", blockStart(index, block), 1));
            for (var fragment : DeltaSplitter.fragments(call.argumentsJson(), chunkSize)) {
                var delta = ChatWire.JSON
                        .createObjectNode()
                        .put("type", "input_json_delta")
                        .put("partial_json", fragment);
                frames.add(frame(FrameKind.CONTENT, "content_block_delta", blockDelta(index, delta), tokens(fragment)));
            }
            frames.add(frame(FrameKind.MARK, "content_block_stop", blockStop(index), 0));
        }
        var messageDelta = ChatWire.JSON.createObjectNode().put("type", "message_delta");
        messageDelta
                .putObject("delta")
                .put("stop_reason", stopReason(answer.calls()))
                .putNull("stop_sequence");
        messageDelta.putObject("usage").put("output_tokens", answer.usage().completionTokens());
        frames.add(frame(FrameKind.TAIL, "message_delta", messageDelta, 0));
        frames.add(frame(
                FrameKind.TAIL, "message_stop", ChatWire.JSON.createObjectNode().put("type", "message_stop"), 0));
        return frames;
    }

    @Override
    public String malformedFrame() {
        return "event: content_block_delta\ndata: {not json\n\n";
    }

    @Override
    public String streamErrorFrame(String type, String message) {
        return event("error", errorBody(type, message));
    }

    static String stopReason(List<Reply.ToolCall> calls) {
        return calls.isEmpty() ? "end_turn" : "tool_use";
    }

    /** Anthropic's error type for an HTTP status. */
    static String typeFor(int status) {
        return switch (status) {
            case 400, 422 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 503, 529 -> "overloaded_error";
            default -> "api_error";
        };
    }

    private static ObjectNode errorBody(String type, String message) {
        var root = ChatWire.JSON.createObjectNode().put("type", "error");
        root.putObject("error").put("type", type).put("message", message);
        return root;
    }

    private static ObjectNode messageHead(Answer answer, int outputTokens) {
        var message = ChatWire.JSON.createObjectNode();
        message.put("id", answer.id().id());
        message.put("type", "message");
        message.put("role", "assistant");
        message.put("model", answer.id().model());
        message.putNull("stop_sequence");
        // Anthropic counts cache reads apart from input_tokens
        var usage = answer.usage();
        message.putObject("usage")
                .put("input_tokens", usage.promptTokens() - usage.cachedPromptTokens())
                .put("output_tokens", outputTokens)
                .put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", usage.cachedPromptTokens());
        return message;
    }

    /** The tool input as an object; scripts may send broken JSON, which goes out as a string. */
    private static JsonNode inputOf(String argumentsJson) {
        try {
            return ChatWire.JSON.readTree(argumentsJson);
        } catch (IOException e) {
            return ChatWire.JSON.getNodeFactory().textNode(argumentsJson);
        }
    }

    private static ObjectNode blockStart(int index, ObjectNode block) {
        var start = ChatWire.JSON
                .createObjectNode()
                .put("type", "content_block_start")
                .put("index", index);
        start.set("content_block", block);
        return start;
    }

    private static ObjectNode blockDelta(int index, ObjectNode delta) {
        var node = ChatWire.JSON
                .createObjectNode()
                .put("type", "content_block_delta")
                .put("index", index);
        node.set("delta", delta);
        return node;
    }

    private static ObjectNode blockStop(int index) {
        return ChatWire.JSON
                .createObjectNode()
                .put("type", "content_block_stop")
                .put("index", index);
    }

    private static int tokens(String piece) {
        return Math.max(1, ChatWire.estimateTokens(piece.length()));
    }

    private static Frame frame(FrameKind kind, String event, ObjectNode data, int tokens) {
        return new Frame(kind, event(event, data), tokens);
    }

    private static String event(String name, ObjectNode data) {
        return "event: " + name + "\ndata: " + new String(ChatWire.bytes(data), StandardCharsets.UTF_8) + "\n\n";
    }
}
