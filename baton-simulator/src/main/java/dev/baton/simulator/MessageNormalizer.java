package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the conversation of an Anthropic or Ollama request into the OpenAI message shape, so that script
 * rules and test assertions read every wire the same way: a system message first, assistant tool calls as
 * {@code tool_calls[].function.{name, arguments}} with the arguments as JSON text, and each tool result as its
 * own {@code role: "tool"} message with {@code tool_call_id}.
 */
final class MessageNormalizer {

    private MessageNormalizer() {}

    static List<JsonNode> normalize(WireProtocol protocol, JsonNode body) {
        return switch (protocol) {
            case OPENAI_CHAT -> list(body.path("messages"));
            case ANTHROPIC_MESSAGES -> anthropic(body);
            case OLLAMA_CHAT -> ollama(body.path("messages"));
        };
    }

    private static List<JsonNode> list(JsonNode array) {
        var list = new ArrayList<JsonNode>();
        array.forEach(list::add);
        return List.copyOf(list);
    }

    private static List<JsonNode> anthropic(JsonNode body) {
        var messages = new ArrayList<JsonNode>();
        var system = body.path("system");
        if (system.isTextual() || system.isArray()) {
            var text = system.isTextual() ? system.asText() : joinedText(system);
            messages.add(message("system").put("content", text));
        }
        for (var message : body.path("messages")) {
            var role = message.path("role").asText("");
            var content = message.path("content");
            if (content.isTextual()) {
                messages.add(message(role).put("content", content.asText()));
                continue;
            }
            var text = new StringBuilder();
            var calls = ChatWire.JSON.createArrayNode();
            var results = new ArrayList<JsonNode>();
            for (var block : content) {
                switch (block.path("type").asText("")) {
                    case "text" -> text.append(block.path("text").asText(""));
                    case "tool_use" ->
                        calls.add(call(
                                block.path("id").asText(""), block.path("name").asText(""), block.path("input")));
                    case "tool_result" -> {
                        var result = message("tool");
                        result.put("tool_call_id", block.path("tool_use_id").asText(""));
                        var resultContent = block.path("content");
                        result.put(
                                "content",
                                resultContent.isTextual() ? resultContent.asText() : joinedText(resultContent));
                        if (block.path("is_error").asBoolean(false)) {
                            result.put("is_error", true);
                        }
                        results.add(result);
                    }
                    default -> {
                        // images, thinking and other blocks carry nothing a script matches on
                    }
                }
            }
            messages.addAll(results);
            if (!text.isEmpty() || !calls.isEmpty() || results.isEmpty()) {
                var normalized = message(role).put("content", text.toString());
                if (!calls.isEmpty()) {
                    normalized.set("tool_calls", calls);
                }
                messages.add(normalized);
            }
        }
        return List.copyOf(messages);
    }

    /** Ollama's messages are OpenAI's but for object arguments, missing call ids and {@code tool_name}. */
    private static List<JsonNode> ollama(JsonNode array) {
        var messages = new ArrayList<JsonNode>();
        var pendingIds = new ArrayList<String>();
        int calls = 0;
        for (var message : array) {
            var copy = ((ObjectNode) message.deepCopy());
            if (message.path("tool_calls").isArray()) {
                var normalized = ChatWire.JSON.createArrayNode();
                pendingIds.clear();
                for (var call : message.path("tool_calls")) {
                    var id = call.path("id").asText("call_" + calls++);
                    pendingIds.add(id);
                    normalized.add(call(
                            id,
                            call.path("function").path("name").asText(""),
                            call.path("function").path("arguments")));
                }
                copy.set("tool_calls", normalized);
            } else if ("tool".equals(message.path("role").asText())) {
                if (!copy.has("tool_call_id")) {
                    copy.put("tool_call_id", pendingIds.isEmpty() ? "" : pendingIds.removeFirst());
                }
                if (copy.has("tool_name") && !copy.has("name")) {
                    copy.put("name", copy.path("tool_name").asText());
                }
            }
            messages.add(copy);
        }
        return List.copyOf(messages);
    }

    private static ObjectNode message(String role) {
        return ChatWire.JSON.createObjectNode().put("role", role);
    }

    private static ObjectNode call(String id, String name, JsonNode arguments) {
        var call = ChatWire.JSON.createObjectNode();
        call.put("id", id);
        call.put("type", "function");
        var json = arguments.isTextual() ? arguments.asText() : arguments.isMissingNode() ? "{}" : arguments.toString();
        call.putObject("function").put("name", name).put("arguments", json);
        return call;
    }

    private static String joinedText(JsonNode blocks) {
        var text = new StringBuilder();
        blocks.forEach(block -> text.append(block.path("text").asText("")));
        return text.toString();
    }
}
