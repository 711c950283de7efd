package dev.baton.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/** Builds OpenAI chat-completion request bodies by hand, the way a client library would send them. */
final class ChatBody {

    static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode root = JSON.createObjectNode();
    private final ArrayNode messages;

    private ChatBody() {
        root.put("model", "gpt-test");
        messages = root.putArray("messages");
    }

    static ChatBody create() {
        return new ChatBody();
    }

    ChatBody system(String content) {
        messages.addObject().put("role", "system").put("content", content);
        return this;
    }

    ChatBody user(String content) {
        messages.addObject().put("role", "user").put("content", content);
        return this;
    }

    ChatBody assistant(String content) {
        messages.addObject().put("role", "assistant").put("content", content);
        return this;
    }

    ChatBody assistantCalls(String callId, String tool, String argumentsJson) {
        var message = messages.addObject().put("role", "assistant").putNull("content");
        var call = message.putArray("tool_calls").addObject();
        call.put("id", callId).put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", argumentsJson);
        return this;
    }

    ChatBody toolResult(String callId, String content) {
        messages.addObject().put("role", "tool").put("tool_call_id", callId).put("content", content);
        return this;
    }

    ChatBody tools(String... names) {
        var tools = root.putArray("tools");
        for (var name : names) {
            var function = tools.addObject().put("type", "function").putObject("function");
            function.put("name", name).put("description", "the " + name + " tool");
            function.putObject("parameters").put("type", "object").put("additionalProperties", false);
        }
        return this;
    }

    /** The five task tools of the tool contract. */
    ChatBody taskTools() {
        return tools("add_task", "list_tasks", "complete_task", "update_task", "delete_task", "get_current_time");
    }

    ChatBody stream(boolean includeUsage) {
        root.put("stream", true);
        if (includeUsage) {
            root.putObject("stream_options").put("include_usage", true);
        }
        return this;
    }

    String json() {
        return root.toString();
    }

    RecordedRequest recorded() {
        return new RecordedRequest(
                "POST",
                "/v1/chat/completions",
                Map.of("Content-Type", List.of("application/json")),
                root.deepCopy(),
                json());
    }
}
