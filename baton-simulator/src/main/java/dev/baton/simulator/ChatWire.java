package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The OpenAI Chat Completions JSON shapes the simulator sends, and its token estimate. */
final class ChatWire {

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Token counts as reported in {@code usage}.
     *
     * @param cachedPromptTokens how many of {@code promptTokens} came from the prompt cache
     */
    record Usage(int promptTokens, int completionTokens, int cachedPromptTokens) {
        ObjectNode toJson() {
            var usage = JSON.createObjectNode();
            usage.put("prompt_tokens", promptTokens);
            usage.put("completion_tokens", completionTokens);
            usage.put("total_tokens", promptTokens + completionTokens);
            usage.putObject("prompt_tokens_details").put("cached_tokens", cachedPromptTokens);
            usage.putObject("completion_tokens_details").put("reasoning_tokens", 0);
            return usage;
        }
    }

    /** Identity of one completion: every chunk of a stream repeats it. */
    record CompletionId(String id, long created, String model) {}

    private ChatWire() {}

    /** About four characters per token, rounded up: deterministic and close enough for budgets. */
    static int estimateTokens(int characters) {
        return (characters + 3) / 4;
    }

    static int promptTokens(RecordedRequest request) {
        int characters = 0;
        for (var message : request.messages()) {
            characters += RecordedRequest.textOf(message).length();
            for (var call : message.path("tool_calls")) {
                characters += call.path("function").path("name").asText("").length();
                characters += call.path("function").path("arguments").asText("").length();
            }
        }
        return estimateTokens(characters);
    }

    static int completionTokens(String text, List<Reply.ToolCall> calls) {
        int characters = text.length();
        for (var call : calls) {
            characters += call.name().length() + call.argumentsJson().length();
        }
        return estimateTokens(characters);
    }

    static Usage usage(RecordedRequest request, String text, List<Reply.ToolCall> calls, Reply.UsageOverride override) {
        int prompt =
                override != null && override.promptTokens() != null ? override.promptTokens() : promptTokens(request);
        int completion = override != null && override.completionTokens() != null
                ? override.completionTokens()
                : completionTokens(text, calls);
        // an estimated prompt may be smaller than a scripted cache read: the cache never holds more than the prompt
        int cached = override != null && override.cachedPromptTokens() != null
                ? Math.min(override.cachedPromptTokens(), prompt)
                : 0;
        return new Usage(prompt, completion, cached);
    }

    static ObjectNode completion(
            CompletionId id, String text, List<Reply.ToolCall> calls, List<String> callIds, Usage usage) {
        var root = header(id, "chat.completion");
        var choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        var message = choice.putObject("message");
        message.put("role", "assistant");
        if (text.isEmpty() && !calls.isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", text);
        }
        message.putNull("refusal");
        if (!calls.isEmpty()) {
            var toolCalls = message.putArray("tool_calls");
            for (int i = 0; i < calls.size(); i++) {
                var call = toolCalls.addObject();
                call.put("id", callIds.get(i));
                call.put("type", "function");
                call.putObject("function")
                        .put("name", calls.get(i).name())
                        .put("arguments", calls.get(i).argumentsJson());
            }
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason(calls));
        root.set("usage", usage.toJson());
        return root;
    }

    static String finishReason(List<Reply.ToolCall> calls) {
        return calls.isEmpty() ? "stop" : "tool_calls";
    }

    /** A chunk with one choice whose delta is {@code delta}; {@code usage: null} when usage was requested. */
    static ObjectNode chunk(CompletionId id, ObjectNode delta, String finishReason, boolean includeUsage) {
        var root = header(id, "chat.completion.chunk");
        var choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (includeUsage) {
            root.putNull("usage");
        }
        return root;
    }

    /** The last chunk of a stream that asked for {@code stream_options.include_usage}. */
    static ObjectNode usageChunk(CompletionId id, Usage usage) {
        var root = header(id, "chat.completion.chunk");
        root.putArray("choices");
        root.set("usage", usage.toJson());
        return root;
    }

    static ObjectNode textDelta(String content) {
        return JSON.createObjectNode().put("content", content);
    }

    static ObjectNode roleDelta(boolean withEmptyContent) {
        var delta = JSON.createObjectNode().put("role", "assistant");
        if (withEmptyContent) {
            delta.put("content", "");
        } else {
            delta.putNull("content");
        }
        return delta;
    }

    /** The first delta of a streamed tool call: index, id, type, name and empty arguments. */
    static ObjectNode toolCallStartDelta(int index, String callId, String name) {
        var delta = JSON.createObjectNode();
        var call = delta.putArray("tool_calls").addObject();
        call.put("index", index);
        call.put("id", callId);
        call.put("type", "function");
        call.putObject("function").put("name", name).put("arguments", "");
        return delta;
    }

    static ObjectNode toolCallArgumentsDelta(int index, String fragment) {
        var delta = JSON.createObjectNode();
        var call = delta.putArray("tool_calls").addObject();
        call.put("index", index);
        call.putObject("function").put("arguments", fragment);
        return delta;
    }

    static ObjectNode error(String message, String type, String code) {
        var root = JSON.createObjectNode();
        var error = root.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.putNull("param");
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        return root;
    }

    static ObjectNode models(String model, long created) {
        var root = JSON.createObjectNode().put("object", "list");
        ArrayNode data = root.putArray("data");
        data.addObject()
                .put("id", model)
                .put("object", "model")
                .put("created", created)
                .put("owned_by", "baton-simulator");
        return root;
    }

    static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a tree built in memory always serialises", e);
        }
    }

    static String sse(JsonNode node) {
        return "data: " + new String(bytes(node), java.nio.charset.StandardCharsets.UTF_8) + "\n\n";
    }

    private static ObjectNode header(CompletionId id, String object) {
        var root = JSON.createObjectNode();
        root.put("id", id.id());
        root.put("object", object);
        root.put("created", id.created());
        root.put("model", id.model());
        root.put("system_fingerprint", "fp_baton_sim");
        return root;
    }
}
