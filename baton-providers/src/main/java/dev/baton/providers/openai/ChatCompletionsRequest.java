package dev.baton.providers.openai;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The body of a streamed Chat Completions request, written straight to UTF-8 bytes with Jackson's streaming
 * generator: no request objects, no intermediate String. Every call streams with
 * {@code stream_options.include_usage}, so the usage arrives in the stream's last chunk.
 *
 * <p>The shape is what LangChain4j's OpenAI module sent before (the simulator and the providers' tests saw the same
 * fields): a blank system message is left out, an assistant message that only called tools has no {@code content},
 * and each tool's parameters schema goes out exactly as the tool gave it.
 */
final class ChatCompletionsRequest {

    private static final ObjectMapper JSON = new ObjectMapper(PooledJsonFactory.create());

    private ChatCompletionsRequest() {}

    static byte[] body(ModelRequest request) {
        try (ByteArrayBuilder bytes = new ByteArrayBuilder(8192);
                JsonGenerator out = JSON.getFactory().createGenerator(bytes)) {
            out.writeStartObject();
            out.writeStringField("model", request.model());
            out.writeArrayFieldStart("messages");
            for (ChatMessage message : request.messages()) write(out, message);
            out.writeEndArray();
            if (request.temperature() != null) out.writeNumberField("temperature", request.temperature());
            out.writeBooleanField("stream", true);
            out.writeObjectFieldStart("stream_options");
            out.writeBooleanField("include_usage", true);
            out.writeEndObject();
            if (!request.tools().isEmpty()) {
                out.writeArrayFieldStart("tools");
                for (ToolSpec tool : request.tools()) write(out, tool);
                out.writeEndArray();
            }
            out.writeEndObject();
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            // a generator over a byte array does no I/O
            throw new UncheckedIOException(e);
        }
    }

    private static void write(JsonGenerator out, ChatMessage message) throws IOException {
        switch (message) {
            case ChatMessage.System s -> {
                // an empty system message tells the model nothing, and some servers reject it
                if (s.content().isBlank()) return;
                text(out, "system", s.content());
            }
            case ChatMessage.User u -> text(out, "user", u.content());
            case ChatMessage.Assistant a -> assistant(out, a);
            case ChatMessage.ToolResult r -> {
                out.writeStartObject();
                out.writeStringField("role", "tool");
                out.writeStringField("tool_call_id", r.toolCallId());
                out.writeStringField("content", r.content());
                out.writeEndObject();
            }
        }
    }

    private static void text(JsonGenerator out, String role, String content) throws IOException {
        out.writeStartObject();
        out.writeStringField("role", role);
        out.writeStringField("content", content);
        out.writeEndObject();
    }

    private static void assistant(JsonGenerator out, ChatMessage.Assistant message) throws IOException {
        out.writeStartObject();
        out.writeStringField("role", "assistant");
        if (message.toolCalls().isEmpty() || !message.text().isEmpty()) out.writeStringField("content", message.text());
        if (!message.toolCalls().isEmpty()) {
            out.writeArrayFieldStart("tool_calls");
            for (ToolCallRequest call : message.toolCalls()) {
                out.writeStartObject();
                out.writeStringField("id", call.id());
                out.writeStringField("type", "function");
                out.writeObjectFieldStart("function");
                out.writeStringField("name", call.name());
                out.writeStringField("arguments", call.argumentsJson());
                out.writeEndObject();
                out.writeEndObject();
            }
            out.writeEndArray();
        }
        out.writeEndObject();
    }

    private static void write(JsonGenerator out, ToolSpec tool) throws IOException {
        out.writeStartObject();
        out.writeStringField("type", "function");
        out.writeObjectFieldStart("function");
        out.writeStringField("name", tool.name());
        out.writeStringField("description", tool.description());
        out.writeFieldName("parameters");
        out.writeTree(tool.parametersSchema());
        out.writeEndObject();
        out.writeEndObject();
    }
}
