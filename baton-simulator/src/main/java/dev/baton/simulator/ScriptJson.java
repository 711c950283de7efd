package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** What the bundled scripts share: reading tool results and earlier turns, and calling only offered tools. */
final class ScriptJson {
    private ScriptJson() {}

    /** A tool result's content as JSON; a missing node when it is not JSON. */
    static JsonNode parse(String content) {
        try {
            var node = ChatWire.JSON.readTree(content);
            return node == null ? MissingNode.getInstance() : node;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    /** The tool's refusal, as a sentence for the user, when the result is an error. */
    static Optional<String> error(JsonNode result) {
        if (!result.has("error")) return Optional.empty();
        var error = result.get("error");
        var message = error.isObject() ? error.path("message").asText("something went wrong") : error.asText();
        return Optional.of(message.strip().replaceAll("[.!]+$", ""));
    }

    /** A tool call, or an honest refusal when the agent was not given that tool. */
    static Reply call(RecordedRequest request, String tool, JsonNode arguments) {
        if (!request.toolNames().contains(tool)) {
            return Reply.text("I would use the " + tool + " tool for that, but this agent does not offer it.");
        }
        return Reply.toolCall(tool, arguments.toString());
    }

    /** The text of the assistant's last answer before the latest user message, or "" when there is none. */
    static String previousAnswer(RecordedRequest request) {
        List<JsonNode> messages = request.messages();
        boolean pastLastUser = false;
        for (int i = messages.size() - 1; i >= 0; i--) {
            String role = messages.get(i).path("role").asText();
            if (role.equals("user")) pastLastUser = true;
            else if (pastLastUser && role.equals("assistant")) {
                String text = RecordedRequest.textOf(messages.get(i));
                if (!text.isBlank()) return text;
            }
        }
        return "";
    }

    /** The system prompt's text, or "". */
    static String system(RecordedRequest request) {
        for (var message : request.messages()) {
            if (message.path("role").asText().equals("system")) return RecordedRequest.textOf(message);
        }
        return "";
    }
}
