package dev.baton.server.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code POST /v1/chat/completions} body as the door uses it. The client sends the whole history each time: the
 * last message is the new user message, the user and assistant messages before it are the history that names the
 * Baton session (see {@link HistoryDigest}); {@code system} and {@code developer} messages are read and ignored (the
 * agent's configured behaviour is the system prompt, and a client cannot replace it). Sampling fields
 * ({@code temperature}, {@code max_tokens}...) are the agent's to decide and are ignored too; {@code user} never
 * changes who acts.
 *
 * @param model the agent's id
 * @param history the user and assistant messages before the new one, in order
 * @param message the new user message
 * @param conversationId a Baton session the client names itself ({@code metadata.conversation_id}), or null
 */
record ChatRequest(
        String model,
        List<Entry> history,
        String message,
        boolean stream,
        boolean includeUsage,
        String conversationId) {

    /** One earlier message: its role ("user" or "assistant") and its text. */
    record Entry(String role, String text) {}

    ChatRequest {
        history = List.copyOf(history);
    }

    /** Reads and checks {@code body}; every refusal names its field. */
    static ChatRequest parse(JsonNode body) {
        for (String clientTools : List.of("tools", "functions", "tool_choice", "function_call")) {
            JsonNode v = body.get(clientTools);
            // an empty list asks for no tools, which is what the client gets anyway
            if (v != null && !v.isNull() && !(v.isArray() && v.isEmpty()))
                throw InvalidRequest.of(
                        clientTools.startsWith("function") ? "functions" : "tools",
                        "client-side tools are not supported: the agent's tools run on the server (see"
                                + " docs/openai-compat.md); remove '" + clientTools + "'");
        }
        String model = OpenAiFields.requiredText(body, "model");
        JsonNode n = body.get("n");
        if (n != null && !n.isNull() && !(n.canConvertToInt() && n.asInt() == 1))
            throw InvalidRequest.of("n", "only n = 1 is supported");
        boolean stream = OpenAiFields.flag(body, "stream");
        JsonNode options = body.get("stream_options");
        boolean includeUsage = false;
        if (options != null && !options.isNull()) {
            if (!options.isObject()) throw InvalidRequest.of("stream_options", "'stream_options' must be an object");
            includeUsage = OpenAiFields.flag(options, "include_usage");
        }
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty())
            throw InvalidRequest.of("messages", "'messages' must be a non-empty array");
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            String where = "messages[" + i + "]";
            JsonNode m = messages.get(i);
            if (!m.isObject()) throw InvalidRequest.of(where, "each message must be an object");
            JsonNode role = m.get("role");
            if (role == null || !role.isTextual()) throw InvalidRequest.of(where + ".role", "'role' is required");
            switch (role.asText()) {
                case "system", "developer" -> {} // the agent's own prompt stands; see the record's doc
                case "user", "assistant" -> entries.add(new Entry(role.asText(), text(m, where)));
                case "tool", "function" ->
                    throw InvalidRequest.of(
                            where + ".role", "tool results come from the server's own tools, not from the client");
                default -> throw InvalidRequest.of(where + ".role", "unknown role '" + role.asText() + "'");
            }
        }
        if (entries.isEmpty() || !entries.getLast().role().equals("user"))
            throw InvalidRequest.of("messages", "the last message must be the user's");
        String conversationId = null;
        JsonNode metadata = body.get("metadata");
        if (metadata != null && !metadata.isNull()) {
            if (!metadata.isObject()) throw InvalidRequest.of("metadata", "'metadata' must be an object");
            JsonNode id = metadata.get("conversation_id");
            if (id != null && !id.isNull()) {
                if (!id.isTextual() || id.asText().isBlank())
                    throw InvalidRequest.of("metadata.conversation_id", "'conversation_id' must be a string");
                conversationId = id.asText();
            }
        }
        return new ChatRequest(
                model,
                entries.subList(0, entries.size() - 1),
                entries.getLast().text(),
                stream,
                includeUsage,
                conversationId);
    }

    /** A message's text: a string, or an array of {@code text} parts (joined); other parts are refused. */
    private static String text(JsonNode message, String where) {
        JsonNode content = message.get("content");
        if (content == null || content.isNull()) {
            if (message.path("role").asText().equals("assistant")) return "";
            throw InvalidRequest.of(where + ".content", "'content' is required");
        }
        if (content.isTextual()) return content.asText();
        if (!content.isArray()) throw InvalidRequest.of(where + ".content", "'content' must be a string or an array");
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            if (!"text".equals(part.path("type").asText()) || !part.path("text").isTextual())
                throw InvalidRequest.of(where + ".content", "only text content parts are supported");
            text.append(part.get("text").asText());
        }
        return text.toString();
    }
}
