package dev.baton.core.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ToolCallRequest;
import java.util.List;

/**
 * Messages in the shape of the GenAI conventions' {@code gen_ai.input.messages} and {@code gen_ai.output.messages}
 * (role, then typed parts), rendered only when content capture is on.
 */
final class ContentCapture {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ContentCapture() {}

    static String inputMessages(List<ChatMessage> messages) {
        ArrayNode out = JSON.createArrayNode();
        for (ChatMessage message : messages) {
            switch (message) {
                case ChatMessage.System s -> text(out.addObject(), "system", s.content());
                case ChatMessage.User u -> text(out.addObject(), "user", u.content());
                case ChatMessage.Assistant a -> assistant(out.addObject(), a.text(), a.toolCalls());
                case ChatMessage.ToolResult r -> {
                    ObjectNode part = out.addObject()
                            .put("role", "tool")
                            .putArray("parts")
                            .addObject();
                    part.put("type", "tool_call_response")
                            .put("id", r.toolCallId())
                            .put("response", r.content());
                }
            }
        }
        return out.toString();
    }

    static String outputMessages(ModelReply reply) {
        ArrayNode out = JSON.createArrayNode();
        ObjectNode message = assistant(out.addObject(), reply.text(), reply.toolCalls());
        if (reply.finishReason() != null) message.put("finish_reason", reply.finishReason());
        return out.toString();
    }

    private static void text(ObjectNode message, String role, String content) {
        message.put("role", role)
                .putArray("parts")
                .addObject()
                .put("type", "text")
                .put("content", content);
    }

    private static ObjectNode assistant(ObjectNode message, String text, List<ToolCallRequest> calls) {
        ArrayNode parts = message.put("role", "assistant").putArray("parts");
        if (text != null && !text.isEmpty())
            parts.addObject().put("type", "text").put("content", text);
        for (ToolCallRequest call : calls) {
            parts.addObject()
                    .put("type", "tool_call")
                    .put("id", call.id())
                    .put("name", call.name())
                    .put("arguments", call.argumentsJson());
        }
        return message;
    }
}
