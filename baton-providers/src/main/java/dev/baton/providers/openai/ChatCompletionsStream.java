package dev.baton.providers.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.text.TextPieces;
import dev.baton.providers.streaming.SseData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Assembles a streamed Chat Completions answer from its chunks, read with Jackson's streaming parser: no tree and no
 * response objects per chunk, and nothing kept of a chunk once it is read (the answer's text once, the tool calls,
 * the usage). Only the first choice counts, as Baton asks for one.
 *
 * <p>Each chunk's news goes to the delta consumer as it is read: text, reasoning ({@code reasoning_content}, or
 * {@code reasoning} as some compatible servers name it), and a tool call's piece whenever its arguments grow.
 */
final class ChatCompletionsStream {

    /** The provider reported an error inside the stream ({@code data: {"error": ...}}). */
    static final class StreamError extends Exception {
        StreamError(String message) {
            super(message);
        }
    }

    private static final JsonFactory JSON = PooledJsonFactory.create();
    private static final String DONE = "[DONE]";

    /** The deltas as read: the turn keeps the same strings, so a long answer's text is held once, not twice. */
    private final TextPieces text = new TextPieces();

    private final Map<Integer, ToolCallParts> calls = new TreeMap<>();
    private String model;
    private String finishReason;
    private long inputTokens, outputTokens, cachedTokens;
    private boolean done;
    private int lastCallIndex = -1;

    /** Reads one event's data, handing what it adds to {@code onDelta}. */
    void accept(String data, Consumer<ModelDelta> onDelta) throws IOException, StreamError {
        if (data.equals(DONE)) {
            done = true;
            return;
        }
        chunk(JSON.createParser(data), onDelta);
    }

    /** Reads one event's data from its UTF-8 bytes where they lie, handing what it adds to {@code onDelta}. */
    void accept(SseData data, Consumer<ModelDelta> onDelta) throws IOException, StreamError {
        if (data.is(DONE)) {
            done = true;
            return;
        }
        chunk(JSON.createParser(data.bytes(), 0, data.length()), onDelta);
    }

    private void chunk(JsonParser parser, Consumer<ModelDelta> onDelta) throws IOException, StreamError {
        try (JsonParser p = parser) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new StreamError("a stream chunk is not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "model" -> {
                        if (value == JsonToken.VALUE_STRING) model = p.getText();
                    }
                    case "choices" -> choices(p, value, onDelta);
                    case "usage" -> usage(p, value);
                    case "error" -> throw new StreamError("the stream reported an error: " + errorOf(p, value));
                    default -> p.skipChildren();
                }
            }
        }
    }

    /** Whether the provider said the stream is complete ({@code [DONE]}). */
    boolean done() {
        return done;
    }

    /** Whether the answer finished (a finish reason came), even if the stream's completion marker did not. */
    boolean finished() {
        return finishReason != null;
    }

    ModelReply reply(String requestedModel) {
        List<ToolCallRequest> requests = new ArrayList<>(calls.size());
        int i = 0;
        for (ToolCallParts call : calls.values()) {
            // some compatible servers omit tool call ids; the tool result must still be matched to its call
            String id = call.id == null || call.id.isBlank() ? "call_" + i : call.id;
            requests.add(new ToolCallRequest(id, call.name == null ? "" : call.name, call.arguments.toString()));
            i++;
        }
        return new ModelReply(
                text.toString(),
                requests,
                new TokenUsage(inputTokens, outputTokens, cachedTokens),
                model == null ? requestedModel : model,
                finishReason);
    }

    private void choices(JsonParser p, JsonToken value, Consumer<ModelDelta> onDelta) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        boolean first = true;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            if (!first) {
                p.skipChildren();
                continue;
            }
            first = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "delta" -> delta(p, v, onDelta);
                    case "finish_reason" -> {
                        if (v == JsonToken.VALUE_STRING && !p.getText().isBlank())
                            finishReason = p.getText().toLowerCase(Locale.ROOT);
                    }
                    default -> p.skipChildren();
                }
            }
        }
    }

    private void delta(JsonParser p, JsonToken value, Consumer<ModelDelta> onDelta) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "content" -> {
                    if (v == JsonToken.VALUE_STRING && p.getTextLength() > 0) {
                        String piece = p.getText();
                        text.append(piece);
                        onDelta.accept(new ModelDelta.Text(piece));
                    }
                }
                case "reasoning_content", "reasoning" -> {
                    if (v == JsonToken.VALUE_STRING && p.getTextLength() > 0)
                        onDelta.accept(new ModelDelta.Thinking(p.getText()));
                }
                case "tool_calls" -> toolCalls(p, v, onDelta);
                default -> p.skipChildren();
            }
        }
    }

    private void toolCalls(JsonParser p, JsonToken value, Consumer<ModelDelta> onDelta) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.START_OBJECT) {
            Integer index = null;
            String id = null, name = null, arguments = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "index" -> index = v == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : null;
                    case "id" -> id = v == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "function" -> {
                        if (v != JsonToken.START_OBJECT) {
                            p.skipChildren();
                            break;
                        }
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String f = p.currentName();
                            JsonToken fv = p.nextToken();
                            if (f.equals("name") && fv == JsonToken.VALUE_STRING) name = p.getText();
                            else if (f.equals("arguments") && fv == JsonToken.VALUE_STRING) arguments = p.getText();
                            else p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            int at = indexOf(index, id);
            ToolCallParts call = calls.computeIfAbsent(at, i -> new ToolCallParts());
            if (id != null && !id.isEmpty() && call.id == null) call.id = id;
            if (name != null && !name.isEmpty() && call.name == null) call.name = name;
            if (arguments != null && !arguments.isEmpty()) {
                call.arguments.append(arguments);
                // like the pieces that name a call, a piece without arguments is not reported on its own
                onDelta.accept(new ModelDelta.ToolCallDelta(at, call.id, call.name, arguments));
            }
        }
    }

    /** The call a piece belongs to: its index, or for servers that leave it out, a new call when a new id starts. */
    private int indexOf(Integer index, String id) {
        if (index != null && index >= 0) {
            lastCallIndex = index;
            return index;
        }
        if (lastCallIndex < 0 || (id != null && !id.isEmpty() && !id.equals(calls.get(lastCallIndex).id)))
            lastCallIndex = calls.size();
        return lastCallIndex;
    }

    private void usage(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "prompt_tokens" -> inputTokens = count(p, v);
                case "completion_tokens" -> outputTokens = count(p, v);
                case "prompt_tokens_details" -> {
                    if (v != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        break;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        JsonToken dv = p.nextToken();
                        if (p.currentName().equals("cached_tokens")) cachedTokens = count(p, dv);
                        else p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private static long count(JsonParser p, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
    }

    /** The error's message (and type), never more than a line. */
    private static String errorOf(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) return p.getText();
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return "(no message)";
        }
        String message = null, type = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (field.equals("message") && v == JsonToken.VALUE_STRING) message = p.getText();
            else if (field.equals("type") && v == JsonToken.VALUE_STRING) type = p.getText();
            else p.skipChildren();
        }
        String said = message == null ? "(no message)" : message;
        return type == null ? said : type + ": " + said;
    }

    /** One tool call as its pieces arrive. */
    private static final class ToolCallParts {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }
}
