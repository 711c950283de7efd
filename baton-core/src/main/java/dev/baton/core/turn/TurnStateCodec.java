package dev.baton.core.turn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@link TurnState} as JSON text, for storing a paused turn. The mapping is written out here rather than derived
 * from the records, so renaming a component cannot silently change what is stored; the text carries a
 * {@code version} and {@link #decode} refuses versions it does not know.
 *
 * <p>Exact where it matters: tool-call arguments stay the model's raw text (valid JSON or not), costs keep their
 * scale (as decimal strings), instants keep their nanoseconds. Tool results and filter states are embedded as JSON
 * and read back as Jackson reads any JSON by default, as the runtime reads tool output elsewhere.
 */
public final class TurnStateCodec {
    /** The format {@link #encode} writes. */
    public static final int VERSION = 1;

    private static final JsonMapper JSON =
            JsonMapper.builder(PooledJsonFactory.create()).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TurnStateCodec() {}

    /** The state as JSON text. */
    public static String encode(TurnState state) {
        ObjectNode root = NODES.objectNode();
        root.put("version", VERSION);
        root.put("turnId", state.turnId());
        root.put("sessionId", state.sessionId());
        root.put("userMessageId", state.userMessageId());
        root.put("deadline", state.deadline() == null ? null : state.deadline().toString());
        root.put("iteration", state.iteration());
        root.set("messages", array(state.messages(), TurnStateCodec::message));
        root.put("answerText", state.answerText());
        root.put("model", state.model());
        root.set("toolCalls", array(state.toolCalls(), TurnStateCodec::toolCall));
        root.set("usage", array(state.usage(), TurnStateCodec::usage));
        root.set("callCache", array(state.callCache(), TurnStateCodec::cacheEntry));
        root.set("filters", filters(state.filters()));
        return root.toString();
    }

    /**
     * Reads what {@link #encode} wrote.
     *
     * @throws IllegalArgumentException if the text is not a turn state of a known version
     */
    public static TurnState decode(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a turn state: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a turn state: expected a JSON object");
        }
        int version = root.path("version").asInt(-1);
        if (version != VERSION) {
            throw new IllegalArgumentException("unknown turn state version " + root.path("version"));
        }
        try {
            return new TurnState(
                    text(root, "turnId"),
                    text(root, "sessionId"),
                    text(root, "userMessageId"),
                    instantOrNull(root, "deadline"),
                    root.path("iteration").asInt(),
                    list(root, "messages", TurnStateCodec::message),
                    text(root, "answerText"),
                    textOrNull(root, "model"),
                    list(root, "toolCalls", TurnStateCodec::toolCall),
                    list(root, "usage", TurnStateCodec::usage),
                    list(root, "callCache", TurnStateCodec::cacheEntry),
                    filters(root.path("filters")));
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException("not a valid turn state: " + e.getMessage(), e);
        }
    }

    private static JsonNode message(ChatMessage message) {
        ObjectNode node = NODES.objectNode();
        switch (message) {
            case ChatMessage.System m -> node.put("role", "system").put("content", m.content());
            case ChatMessage.User m -> node.put("role", "user").put("content", m.content());
            case ChatMessage.Assistant m -> {
                node.put("role", "assistant").put("text", m.text());
                node.set("toolCalls", array(m.toolCalls(), TurnStateCodec::request));
            }
            case ChatMessage.ToolResult m ->
                node.put("role", "tool")
                        .put("toolCallId", m.toolCallId())
                        .put("toolName", m.toolName())
                        .put("content", m.content());
        }
        return node;
    }

    private static ChatMessage message(JsonNode node) {
        String role = text(node, "role");
        return switch (role) {
            case "system" -> new ChatMessage.System(text(node, "content"));
            case "user" -> new ChatMessage.User(text(node, "content"));
            case "assistant" ->
                new ChatMessage.Assistant(text(node, "text"), list(node, "toolCalls", TurnStateCodec::request));
            case "tool" ->
                new ChatMessage.ToolResult(text(node, "toolCallId"), text(node, "toolName"), text(node, "content"));
            default -> throw new IllegalArgumentException("unknown message role: " + role);
        };
    }

    private static JsonNode request(ToolCallRequest call) {
        // the raw text, not parsed: it may not be valid JSON, and the model must be shown exactly what it sent
        return NODES.objectNode().put("id", call.id()).put("name", call.name()).put("arguments", call.argumentsJson());
    }

    private static ToolCallRequest request(JsonNode node) {
        return new ToolCallRequest(text(node, "id"), text(node, "name"), text(node, "arguments"));
    }

    private static JsonNode toolCall(TurnState.ToolCall call) {
        ToolCallOutcome o = call.outcome();
        ObjectNode node = NODES.objectNode();
        node.put("recordId", call.recordId());
        node.set("request", request(o.request()));
        node.put("state", o.state().wireName());
        putResult(node, o.result(), o.error());
        node.put("startedAt", o.startedAt().toString());
        node.put("completedAt", o.completedAt().toString());
        node.put("durationMs", o.durationMs());
        return node;
    }

    private static TurnState.ToolCall toolCall(JsonNode node) {
        return new TurnState.ToolCall(
                text(node, "recordId"),
                new ToolCallOutcome(
                        request(node.path("request")),
                        ToolCallState.fromWire(text(node, "state")),
                        resultOrNull(node),
                        errorOrNull(node),
                        instant(node, "startedAt"),
                        instant(node, "completedAt"),
                        node.path("durationMs").asLong()));
    }

    private static JsonNode usage(UsageRecord u) {
        return NODES.objectNode()
                .put("id", u.id())
                .put("tenantId", u.tenantId())
                .put("userId", u.userId())
                .put("sessionId", u.sessionId())
                .put("messageId", u.messageId())
                .put("provider", u.provider())
                .put("model", u.model())
                .put("inputTokens", u.inputTokens())
                .put("outputTokens", u.outputTokens())
                .put("cachedInputTokens", u.cachedInputTokens())
                // a string keeps the scale: 0.000120 must come back as 0.000120, not 0.00012
                .put("costUsd", u.costUsd().toPlainString())
                .put("latencyMs", u.latencyMs())
                .put("createdAt", u.createdAt().toString());
    }

    private static UsageRecord usage(JsonNode node) {
        return new UsageRecord(
                text(node, "id"),
                textOrNull(node, "tenantId"),
                text(node, "userId"),
                text(node, "sessionId"),
                textOrNull(node, "messageId"),
                textOrNull(node, "provider"),
                text(node, "model"),
                node.path("inputTokens").asLong(),
                node.path("outputTokens").asLong(),
                node.path("cachedInputTokens").asLong(),
                new BigDecimal(text(node, "costUsd")),
                node.path("latencyMs").asLong(),
                instant(node, "createdAt"));
    }

    private static JsonNode cacheEntry(CallCache.Entry e) {
        ObjectNode node = NODES.objectNode()
                .put("toolName", e.toolName())
                .put("canonicalArguments", e.canonicalArguments())
                .put("state", e.state().wireName());
        putResult(node, e.result(), e.error());
        return node;
    }

    private static CallCache.Entry cacheEntry(JsonNode node) {
        return new CallCache.Entry(
                text(node, "toolName"),
                text(node, "canonicalArguments"),
                ToolCallState.fromWire(text(node, "state")),
                resultOrNull(node),
                errorOrNull(node));
    }

    private static JsonNode filters(OutputFilterChain.State state) {
        ObjectNode node = NODES.objectNode();
        node.set("stages", array(state.stages(), stage -> {
            ObjectNode s = NODES.objectNode()
                    .put("module", stage.module())
                    .put("input", stage.input())
                    .put("dropped", stage.dropped());
            if (stage.filterState() != null) {
                s.set("filterState", stage.filterState());
            }
            return s;
        }));
        node.put("withheldBy", state.withheldBy());
        node.put("safeResponse", state.safeResponse());
        node.put("withheld", state.withheld());
        return node;
    }

    private static OutputFilterChain.State filters(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return OutputFilterChain.State.EMPTY;
        }
        return new OutputFilterChain.State(
                list(
                        node,
                        "stages",
                        s -> new OutputFilterChain.StageState(
                                text(s, "module"),
                                text(s, "input"),
                                s.path("dropped").asBoolean(),
                                s.has("filterState") ? s.get("filterState") : null)),
                textOrNull(node, "withheldBy"),
                textOrNull(node, "safeResponse"),
                textOrNull(node, "withheld"));
    }

    /** Exactly one of result and error; a result that is JSON null is kept as such. */
    private static void putResult(ObjectNode node, JsonNode result, ToolError error) {
        if (result != null) {
            node.set("result", result);
        } else {
            node.set("error", NODES.objectNode().put("code", error.code()).put("message", error.message()));
        }
    }

    private static JsonNode resultOrNull(JsonNode node) {
        return node.has("result") ? node.get("result") : null;
    }

    private static ToolError errorOrNull(JsonNode node) {
        JsonNode error = node.get("error");
        return error == null || error.isNull() ? null : new ToolError(text(error, "code"), text(error, "message"));
    }

    private static <T> ArrayNode array(List<T> items, Function<T, JsonNode> each) {
        ArrayNode array = NODES.arrayNode(items.size());
        items.forEach(item -> array.add(each.apply(item)));
        return array;
    }

    private static <T> List<T> list(JsonNode parent, String field, Function<JsonNode, T> each) {
        JsonNode array = parent.path(field);
        if (!array.isArray()) {
            throw new IllegalArgumentException("turn state field " + field + " is not a list");
        }
        List<T> items = new ArrayList<>(array.size());
        array.forEach(item -> items.add(each.apply(item)));
        return items;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("turn state field " + field + " is missing or not text");
        }
        return value.asText();
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : text(node, field);
    }

    private static Instant instant(JsonNode node, String field) {
        return Instant.parse(text(node, field));
    }

    private static Instant instantOrNull(JsonNode node, String field) {
        String value = textOrNull(node, field);
        return value == null ? null : Instant.parse(value);
    }
}
