package dev.baton.providers.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON of Ollama's {@code /api/chat}: the request body, and the assembly of the streamed
 * {@code {"message": {...}, "done": false}} lines into one reply.
 */
final class OllamaWire {

    static final ObjectMapper JSON = new ObjectMapper();

    private OllamaWire() {}

    static String requestBody(ModelRequest request) {
        var root = JSON.createObjectNode();
        root.put("model", request.model());
        root.put("stream", true);
        if (request.temperature() != null) {
            root.putObject("options").put("temperature", request.temperature());
        }
        var messages = root.putArray("messages");
        for (var message : request.messages()) {
            switch (message) {
                case ChatMessage.System s -> {
                    if (!s.content().isBlank()) {
                        messages.addObject().put("role", "system").put("content", s.content());
                    }
                }
                case ChatMessage.User u ->
                    messages.addObject().put("role", "user").put("content", u.content());
                case ChatMessage.Assistant a -> {
                    var node = messages.addObject().put("role", "assistant").put("content", a.text());
                    if (!a.toolCalls().isEmpty()) {
                        var calls = node.putArray("tool_calls");
                        for (var call : a.toolCalls()) {
                            var function = calls.addObject().putObject("function");
                            function.put("name", call.name());
                            function.set("arguments", argumentsObject(call.argumentsJson()));
                        }
                    }
                }
                case ChatMessage.ToolResult r ->
                    messages.addObject()
                            .put("role", "tool")
                            .put("tool_name", r.toolName())
                            .put("content", r.content());
            }
        }
        if (!request.tools().isEmpty()) {
            var tools = root.putArray("tools");
            for (var tool : request.tools()) {
                var function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                function.put("description", tool.description());
                function.set("parameters", tool.parametersSchema());
            }
        }
        return root.toString();
    }

    /** Ollama wants the arguments as an object; text that is not one travels as a string. */
    private static JsonNode argumentsObject(String json) {
        try {
            var node = JSON.readTree(json);
            return node != null && node.isObject()
                    ? node
                    : JSON.getNodeFactory().textNode(json);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(json);
        }
    }

    /** Collects the lines of one streamed answer. Used by one thread. */
    static final class Assembly {
        private final StringBuilder text = new StringBuilder();
        private final List<ToolCallRequest> calls = new ArrayList<>();
        private String model;
        private String doneReason;
        private TokenUsage usage = TokenUsage.ZERO;
        private boolean done;

        /**
         * Reads one line.
         *
         * @return the text, thinking and tool calls it carries, for the caller's deltas
         * @throws IOException when the line is not JSON
         * @throws StreamError when the line is Ollama's {@code {"error": ...}}
         */
        Piece accept(String line) throws IOException {
            JsonNode node = JSON.readTree(line);
            if (node == null || !node.isObject()) {
                throw new IOException("not a JSON object");
            }
            if (node.hasNonNull("error")) {
                throw new StreamError(node.path("error").asText());
            }
            if (node.hasNonNull("model")) {
                model = node.path("model").asText();
            }
            var message = node.path("message");
            var content = message.path("content").asText("");
            text.append(content);
            int firstNewCall = calls.size();
            for (var call : message.path("tool_calls")) {
                var function = call.path("function");
                var arguments = function.path("arguments");
                var json =
                        arguments.isTextual() ? arguments.asText() : arguments.isObject() ? arguments.toString() : "{}";
                // Ollama gives no call ids; the tool result must still be matched to its call
                var id = call.path("id").asText("call_" + calls.size());
                calls.add(new ToolCallRequest(id, function.path("name").asText(), json));
            }
            if (node.path("done").asBoolean(false)) {
                done = true;
                doneReason = node.path("done_reason").asText("stop");
                usage = new TokenUsage(
                        node.path("prompt_eval_count").asLong(0),
                        node.path("eval_count").asLong(0),
                        0);
            }
            return new Piece(
                    content,
                    message.path("thinking").asText(""),
                    calls.subList(firstNewCall, calls.size()),
                    firstNewCall);
        }

        boolean done() {
            return done;
        }

        String text() {
            return text.toString();
        }

        List<ToolCallRequest> calls() {
            return List.copyOf(calls);
        }

        String model() {
            return model;
        }

        /** Ollama says "stop" even when it called tools; the core's vocabulary says "tool_calls". */
        String finishReason() {
            return calls.isEmpty() ? doneReason : "tool_calls";
        }

        TokenUsage usage() {
            return usage;
        }
    }

    /**
     * What one line carried.
     *
     * @param calls the tool calls that arrived whole in this line
     * @param firstCallIndex the position of the first of {@code calls} among the answer's tool calls
     */
    record Piece(String text, String thinking, List<ToolCallRequest> calls, int firstCallIndex) {
        Piece {
            calls = List.copyOf(calls);
        }
    }

    /** Ollama reported a failure inside the stream. */
    static final class StreamError extends IOException {
        StreamError(String message) {
            super("ollama reported an error mid-stream: " + message);
        }
    }
}
