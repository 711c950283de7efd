package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Ollama's native {@code /api/chat}: newline-delimited JSON objects, each with a {@code message} piece and
 * {@code done: false}, then one {@code done: true} object with {@code done_reason} and the token counts
 * ({@code prompt_eval_count}, {@code eval_count}). Tool calls arrive whole, arguments as an object, without ids.
 * Errors are {@code {"error": "..."}}.
 */
final class OllamaFormat implements WireFormat {

    static final OllamaFormat INSTANCE = new OllamaFormat();

    private OllamaFormat() {}

    @Override
    public String completionId(long sequence) {
        return "ollama-sim-" + sequence;
    }

    @Override
    public String callId(long sequence, int index) {
        return "call_" + sequence + "_" + index;
    }

    @Override
    public String streamContentType() {
        return "application/x-ndjson";
    }

    @Override
    public ObjectNode error(int status, String type, String code, String message) {
        return ChatWire.JSON.createObjectNode().put("error", message);
    }

    @Override
    public Map<String, String> rateLimitHeaders(int retryAfterSeconds) {
        return Map.of("Retry-After", Integer.toString(retryAfterSeconds));
    }

    @Override
    public ObjectNode rateLimitError(int retryAfterSeconds) {
        return ChatWire.JSON
                .createObjectNode()
                .put("error", "too many requests (simulated); retry in " + retryAfterSeconds + "s");
    }

    @Override
    public ObjectNode completion(Answer answer) {
        var root = piece(answer, answer.text());
        if (!answer.calls().isEmpty()) {
            ((ObjectNode) root.get("message")).set("tool_calls", toolCalls(answer.calls()));
        }
        return done(root, answer);
    }

    @Override
    public Stream<Frame> stream(Answer answer, int chunkSize, boolean includeUsage) {
        var text = DeltaSplitter.wordStream(answer.text(), chunkSize)
                .map(piece -> new Frame(
                        FrameKind.CONTENT,
                        line(piece(answer, piece).put("done", false)),
                        Math.max(1, ChatWire.estimateTokens(piece.length()))));
        return Stream.concat(text, Stream.of(answer).flatMap(a -> rest(a).stream()));
    }

    private static List<Frame> rest(Answer answer) {
        var frames = new ArrayList<Frame>();
        if (!answer.calls().isEmpty()) {
            var root = piece(answer, "");
            ((ObjectNode) root.get("message")).set("tool_calls", toolCalls(answer.calls()));
            root.put("done", false);
            frames.add(new Frame(FrameKind.CONTENT, line(root), 1));
        }
        frames.add(new Frame(FrameKind.TAIL, line(done(piece(answer, ""), answer)), 0));
        return frames;
    }

    @Override
    public String malformedFrame() {
        return "{not json\n";
    }

    @Override
    public String streamErrorFrame(String type, String message) {
        return line(ChatWire.JSON.createObjectNode().put("error", message));
    }

    private static ObjectNode piece(Answer answer, String text) {
        var root = ChatWire.JSON.createObjectNode();
        root.put("model", answer.id().model());
        root.put("created_at", Instant.ofEpochSecond(answer.id().created()).toString());
        root.putObject("message").put("role", "assistant").put("content", text);
        return root;
    }

    private static ObjectNode done(ObjectNode root, Answer answer) {
        root.put("done", true);
        root.put("done_reason", "stop");
        root.put("total_duration", 1_000_000L);
        root.put("load_duration", 1_000L);
        root.put("prompt_eval_count", answer.usage().promptTokens());
        root.put("prompt_eval_duration", 1_000L);
        root.put("eval_count", answer.usage().completionTokens());
        root.put("eval_duration", 1_000L);
        return root;
    }

    private static JsonNode toolCalls(List<Reply.ToolCall> calls) {
        var array = ChatWire.JSON.createArrayNode();
        for (var call : calls) {
            JsonNode arguments;
            try {
                arguments = ChatWire.JSON.readTree(call.argumentsJson());
            } catch (IOException e) {
                arguments = ChatWire.JSON.getNodeFactory().textNode(call.argumentsJson());
            }
            var function = array.addObject().putObject("function").put("name", call.name());
            function.set("arguments", arguments);
        }
        return array;
    }

    private static String line(ObjectNode node) {
        return new String(ChatWire.bytes(node), StandardCharsets.UTF_8) + "\n";
    }
}
