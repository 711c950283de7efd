package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP request as the simulator received it, recorded before it was answered. The conversation helpers
 * ({@link #messages()}, {@link #lastUserMessage()}, {@link #lastToolResult()}, {@link #toolResults()},
 * {@link #toolNames()}) read every {@link WireProtocol} the same way: Anthropic and Ollama conversations are
 * presented in the OpenAI message shape (see {@link #messages()}); {@link #body()} keeps the request as sent.
 *
 * @param headers header names in lower case, values in arrival order
 * @param body the parsed JSON body; {@link MissingNode} when there was no body or it was not JSON
 * @param rawBody the body exactly as sent (UTF-8)
 * @param query the query string without its {@code ?} (Azure's {@code api-version=...}), "" when there was none
 */
public record RecordedRequest(
        String method, String path, Map<String, List<String>> headers, JsonNode body, String rawBody, String query) {

    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        var copy = new TreeMap<String, List<String>>();
        headers.forEach((name, values) -> copy.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
        headers = Map.copyOf(copy);
        body = body == null ? MissingNode.getInstance() : body;
        rawBody = rawBody == null ? "" : rawBody;
        query = query == null ? "" : query;
    }

    /** A request without a query string. */
    public RecordedRequest(
            String method, String path, Map<String, List<String>> headers, JsonNode body, String rawBody) {
        this(method, path, headers, body, rawBody, "");
    }

    /** The first value of a header, looked up case-insensitively. */
    public Optional<String> header(String name) {
        var values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** The protocol of the path the request was sent to; OpenAI's for paths that are no chat endpoint. */
    public WireProtocol protocol() {
        var protocol = WireProtocol.of(path);
        return protocol == null ? WireProtocol.OPENAI_CHAT : protocol;
    }

    /**
     * The conversation of a chat request, in order, in the OpenAI message shape whatever the wire: an Anthropic
     * top-level {@code system} becomes a leading {@code system} message, {@code tool_use} blocks become
     * {@code tool_calls} (arguments as JSON text) and each {@code tool_result} block its own {@code tool}
     * message; Ollama's object arguments become JSON text and its tool results get the id of the call they
     * answer. OpenAI requests are returned as sent.
     */
    public List<JsonNode> messages() {
        return MessageNormalizer.normalize(protocol(), body);
    }

    /** The {@code tools} array as sent, or a missing node when the request offered none. */
    public JsonNode tools() {
        return body.path("tools");
    }

    /** Names of the tools offered ({@code tools[].function.name}, or Anthropic's {@code tools[].name}). */
    public List<String> toolNames() {
        var names = new ArrayList<String>();
        tools().forEach(tool -> names.add(
                tool.has("function")
                        ? tool.path("function").path("name").asText()
                        : tool.path("name").asText()));
        return List.copyOf(names);
    }

    /** Whether the client asked for a stream; Ollama streams unless told {@code stream: false}. */
    public boolean stream() {
        return body.path("stream").asBoolean(protocol() == WireProtocol.OLLAMA_CHAT);
    }

    /**
     * Whether a streaming request gets usage: OpenAI only when it asked for the final usage chunk
     * ({@code stream_options.include_usage}); Anthropic and Ollama always report it.
     */
    public boolean includeUsage() {
        return protocol() != WireProtocol.OPENAI_CHAT
                || body.path("stream_options").path("include_usage").asBoolean(false);
    }

    /** The requested model (an Azure deployment when the body names none), or "simulator" when there is none. */
    public String model() {
        var model = body.path("model").asText("");
        if (model.isBlank()) {
            model = Objects.requireNonNullElse(WireProtocol.azureDeployment(path), "");
        }
        return model.isBlank() ? "simulator" : model;
    }

    /** The text of the last {@code user} message, or "" when there is none. */
    public String lastUserMessage() {
        var messages = messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if ("user".equals(messages.get(i).path("role").asText())) {
                return textOf(messages.get(i));
            }
        }
        return "";
    }

    /** The role of the last message ("user", "tool", ...), or "" for a request without messages. */
    public String lastRole() {
        var messages = messages();
        return messages.isEmpty() ? "" : messages.getLast().path("role").asText("");
    }

    /** The last message when it is a tool result. */
    public Optional<ToolResultMessage> lastToolResult() {
        var messages = messages();
        if (messages.isEmpty() || !"tool".equals(messages.getLast().path("role").asText())) {
            return Optional.empty();
        }
        var last = messages.getLast();
        var callId = last.path("tool_call_id").asText("");
        var name = last.path("name").asText("");
        if (name.isEmpty()) {
            name = toolNameOfCall(messages, callId);
        }
        return Optional.of(new ToolResultMessage(callId, name, textOf(last)));
    }

    /** Every tool-result message of the request in order, with tool names resolved. */
    public List<ToolResultMessage> toolResults() {
        var messages = messages();
        var results = new ArrayList<ToolResultMessage>();
        for (var message : messages) {
            if ("tool".equals(message.path("role").asText())) {
                var callId = message.path("tool_call_id").asText("");
                var name = message.path("name").asText("");
                results.add(new ToolResultMessage(
                        callId, name.isEmpty() ? toolNameOfCall(messages, callId) : name, textOf(message)));
            }
        }
        return List.copyOf(results);
    }

    /**
     * The text of a message's {@code content}: the string itself, or the {@code text} parts of a content array
     * joined together.
     */
    static String textOf(JsonNode message) {
        var content = message.path("content");
        if (content.isTextual()) {
            return content.asText();
        }
        var text = new StringBuilder();
        if (content.isArray()) {
            content.forEach(part -> text.append(part.path("text").asText("")));
        }
        return text.toString();
    }

    private static String toolNameOfCall(List<JsonNode> messages, String callId) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            for (var call : messages.get(i).path("tool_calls")) {
                if (callId.equals(call.path("id").asText())) {
                    return call.path("function").path("name").asText("");
                }
            }
        }
        return "";
    }
}
