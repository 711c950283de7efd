package dev.baton.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.baton.core.config.Durations;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a {@link SimulatorScript} from YAML. Unknown keys are errors, so a typo never silently changes a test.
 *
 * <pre>{@code
 * pacing: {firstTokenLatency: 200ms, tokensPerSecond: 40, chunkSize: 2}
 * fallback: I only know about the weather.
 * rules:
 *   - name: weather                         # optional
 *     when: {userMatches: "weather in (\\w+)"}   # or userContains, toolResult (+ contentMatches), always
 *     reply:
 *       toolCalls: [{name: get_weather, arguments: {city: "$1"}}]
 *   - when: {toolResult: get_weather, contentMatches: '"sky":"(\w+)"'}
 *     reply: {text: "The sky is $1.", usage: {promptTokens: 10, completionTokens: 5, cachedPromptTokens: 4}}
 *     pacing: {tokensPerSecond: 5}          # merged onto the script's pacing
 *   - when: always
 *     reply: {fault: {kind: disconnect_after, chunks: 2}, text: "streamed before the drop"}
 * }</pre>
 *
 * Fault kinds: {@code http_500}, {@code http_503}, {@code rate_limited} (alias {@code http_429}, with
 * {@code retryAfter}, whole seconds, default 1s), {@code hang}, {@code disconnect_after} ({@code chunks}),
 * {@code malformed_chunk} ({@code afterChunks}), {@code http_error} ({@code status}, {@code type}, {@code code},
 * {@code message}). Durations are read by {@link Durations}: {@code 250ms}, {@code 1.5s}, {@code 1m} or ISO-8601
 * ({@code PT2S}); a bare number is an error.
 */
final class ScriptYaml {

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScriptYaml() {}

    static SimulatorScript parse(InputStream in) throws IOException {
        var root = YAML.readTree(in);
        if (root == null || !root.isObject()) {
            throw invalid("the script must be a YAML mapping");
        }
        allowOnly(root, "script", Set.of("pacing", "fallback", "rules"));
        var builder = SimulatorScript.builder();
        var pacing = root.has("pacing") ? pacing(root.get("pacing"), Pacing.INSTANT, "pacing") : Pacing.INSTANT;
        builder.pacing(pacing);
        if (root.has("fallback")) {
            builder.fallback(text(root.get("fallback"), "fallback"));
        }
        int index = 0;
        for (var rule : root.path("rules")) {
            builder.rule(rule(rule, pacing, "rules[" + index++ + "]"));
        }
        return builder.build();
    }

    private static Rule rule(JsonNode node, Pacing scriptPacing, String where) {
        allowOnly(node, where, Set.of("name", "when", "reply", "pacing"));
        if (!node.has("when") || !node.has("reply")) {
            throw invalid(where + " needs 'when' and 'reply'");
        }
        var rule = Rule.when(condition(node.get("when"), where + ".when"), reply(node.get("reply"), where + ".reply"));
        if (node.has("name")) {
            rule = rule.named(text(node.get("name"), where + ".name"));
        }
        if (node.has("pacing")) {
            rule = rule.withPacing(pacing(node.get("pacing"), scriptPacing, where + ".pacing"));
        }
        return rule;
    }

    private static Condition condition(JsonNode node, String where) {
        if (node.isTextual() && node.asText().equals("always")) {
            return new Condition.Always();
        }
        allowOnly(node, where, Set.of("userContains", "userMatches", "toolResult", "contentMatches", "always"));
        var kinds = new ArrayList<String>();
        node.fieldNames().forEachRemaining(kinds::add);
        kinds.remove("contentMatches");
        if (kinds.size() != 1) {
            throw invalid(where + " needs exactly one of userContains, userMatches, toolResult, always");
        }
        return switch (kinds.getFirst()) {
            case "userContains" -> new Condition.UserContains(text(node.get("userContains"), where));
            case "userMatches" -> Condition.UserMatches.of(text(node.get("userMatches"), where));
            case "toolResult" -> {
                var tool = text(node.get("toolResult"), where + ".toolResult");
                var regex = node.has("contentMatches") ? text(node.get("contentMatches"), where) : null;
                yield Condition.ToolResult.of(tool.equals("*") || tool.equals("any") ? null : tool, regex);
            }
            default -> {
                if (!node.get("always").asBoolean(false)) {
                    throw invalid(where + ".always must be true");
                }
                yield new Condition.Always();
            }
        };
    }

    private static Reply reply(JsonNode node, String where) {
        if (node.isTextual()) {
            return Reply.text(node.asText());
        }
        allowOnly(node, where, Set.of("text", "toolCalls", "fault", "usage"));
        var text = node.has("text") ? text(node.get("text"), where + ".text") : null;
        Reply reply;
        if (node.has("toolCalls")) {
            var calls = new ArrayList<Reply.ToolCall>();
            int i = 0;
            for (var call : node.get("toolCalls")) {
                calls.add(toolCall(call, where + ".toolCalls[" + i++ + "]"));
            }
            reply = new Reply.ToolCalls(text, calls, null);
        } else if (text != null) {
            reply = Reply.text(text);
        } else if (!node.has("fault")) {
            throw invalid(where + " needs text, toolCalls or fault");
        } else {
            reply = null;
        }
        if (node.has("usage")) {
            if (reply == null) {
                throw invalid(where + ".usage needs text or toolCalls (a fault reports no usage)");
            }
            var usage = node.get("usage");
            allowOnly(usage, where + ".usage", Set.of("promptTokens", "completionTokens", "cachedPromptTokens"));
            try {
                reply = reply.withUsage(
                        optionalInt(usage, "promptTokens"),
                        optionalInt(usage, "completionTokens"),
                        optionalInt(usage, "cachedPromptTokens"));
            } catch (IllegalArgumentException e) {
                throw invalid(where + ".usage: " + e.getMessage());
            }
        }
        return node.has("fault") ? new Reply.Failure(fault(node.get("fault"), where + ".fault"), reply) : reply;
    }

    private static Reply.ToolCall toolCall(JsonNode node, String where) {
        allowOnly(node, where, Set.of("name", "arguments"));
        var arguments = node.path("arguments");
        String json;
        try {
            json = arguments.isMissingNode()
                    ? "{}"
                    : arguments.isTextual() ? arguments.asText() : JSON.writeValueAsString(arguments);
        } catch (JsonProcessingException e) {
            throw invalid(where + ".arguments cannot be written as JSON");
        }
        return new Reply.ToolCall(text(node.get("name"), where + ".name"), json);
    }

    private static Fault fault(JsonNode node, String where) {
        var kind = node.isTextual() ? node.asText() : text(node.get("kind"), where + ".kind");
        if (node.isObject()) {
            allowOnly(
                    node,
                    where,
                    Set.of(
                            "kind",
                            "retryAfter",
                            "chunks",
                            "afterChunks",
                            "status",
                            "type",
                            "code",
                            "message",
                            "googleStatus",
                            "reason",
                            "retryDelay"));
        }
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "http_500" -> Fault.http500();
            case "http_503" -> Fault.http503();
            case "rate_limited", "http_429" -> Fault.rateLimited(retryAfterSeconds(node, where + ".retryAfter"));
            case "hang" -> Fault.hang();
            case "disconnect_after" -> Fault.disconnectAfter(node.path("chunks").asInt(1));
            case "overloaded", "http_529" -> Fault.overloaded();
            case "overloaded_mid_stream" ->
                Fault.overloadedMidStream(node.path("afterChunks").asInt(1));
            case "stream_error" ->
                new Fault.StreamError(
                        node.path("afterChunks").asInt(1),
                        node.path("type").asText("api_error"),
                        node.path("message").asText(null));
            case "malformed_chunk" ->
                Fault.malformedChunk(node.path("afterChunks").asInt(1));
            case "google_error" ->
                new Fault.GoogleError(
                        node.path("status").asInt(429),
                        node.path("googleStatus").asText("RESOURCE_EXHAUSTED"),
                        node.path("message").asText(null),
                        node.hasNonNull("reason") ? node.get("reason").asText() : null,
                        node.has("retryDelay") ? duration(node.get("retryDelay"), where + ".retryDelay") : null);
            case "http_error" ->
                new Fault.HttpError(
                        node.path("status").asInt(500),
                        node.path("type").asText("server_error"),
                        node.hasNonNull("code") ? node.get("code").asText() : null,
                        node.path("message").asText(null));
            default -> throw invalid(where + ": unknown fault kind '" + kind + "'");
        };
    }

    private static Pacing pacing(JsonNode node, Pacing base, String where) {
        allowOnly(node, where, Set.of("firstTokenLatency", "tokensPerSecond", "chunkSize"));
        var pacing = base;
        if (node.has("firstTokenLatency")) {
            pacing =
                    pacing.withFirstTokenLatency(duration(node.get("firstTokenLatency"), where + ".firstTokenLatency"));
        }
        if (node.has("tokensPerSecond")) {
            pacing = pacing.withTokensPerSecond(node.get("tokensPerSecond").asDouble());
        }
        if (node.has("chunkSize")) {
            pacing = pacing.withChunkSize(node.get("chunkSize").asInt());
        }
        return pacing;
    }

    private static Duration duration(JsonNode node, String where) {
        if (node.isContainerNode()) {
            throw invalid(where + " must be a duration such as 250ms or 2s");
        }
        try {
            return Durations.parse(node.asText(), where);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    /** The Retry-After header carries whole seconds, so a script cannot ask for less. */
    private static int retryAfterSeconds(JsonNode fault, String where) {
        if (!fault.has("retryAfter")) {
            return 1;
        }
        Duration wait = duration(fault.get("retryAfter"), where);
        if (wait.toNanosPart() != 0 || wait.getSeconds() > Integer.MAX_VALUE) {
            throw invalid("'" + where + ": " + fault.get("retryAfter").asText() + "' must be whole seconds, e.g. 3s");
        }
        return (int) wait.getSeconds();
    }

    private static Integer optionalInt(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asInt() : null;
    }

    private static String text(JsonNode node, String where) {
        if (node == null || node.isNull() || node.isContainerNode()) {
            throw invalid(where + " must be a text");
        }
        return node.asText();
    }

    private static void allowOnly(JsonNode node, String where, Set<String> allowed) {
        if (!node.isObject()) {
            throw invalid(where + " must be a mapping");
        }
        node.fieldNames().forEachRemaining(field -> {
            if (!allowed.contains(field)) {
                throw invalid(where + ": unknown key '" + field + "' (allowed: " + allowed + ")");
            }
        });
    }

    private static IllegalArgumentException invalid(String message) {
        return new IllegalArgumentException("invalid simulator script: " + message);
    }
}
