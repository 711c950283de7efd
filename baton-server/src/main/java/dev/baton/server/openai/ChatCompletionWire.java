package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.server.http.Json;

/** The JSON of OpenAI's Chat Completions answers: a whole completion, a stream's chunks, usage. */
final class ChatCompletionWire {
    private ChatCompletionWire() {}

    /** A whole {@code chat.completion}. */
    static ObjectNode completion(
            String id, long created, String model, String answer, String finish, ObjectNode usage) {
        ObjectNode root = head(id, "chat.completion", created, model);
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.putObject("message")
                .put("role", "assistant")
                .put("content", answer)
                .putNull("refusal");
        choice.putNull("logprobs");
        choice.put("finish_reason", finish);
        root.set("usage", usage);
        return root;
    }

    /**
     * One {@code chat.completion.chunk} with one choice; {@code finish} null until the last. With
     * {@code include_usage}, every chunk but the usage one carries {@code "usage": null}, as OpenAI's do.
     */
    static ObjectNode chunk(
            String id, long created, String model, ObjectNode delta, String finish, boolean includeUsage) {
        ObjectNode root = head(id, "chat.completion.chunk", created, model);
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        choice.put("finish_reason", finish);
        if (includeUsage) root.putNull("usage");
        return root;
    }

    /** The chunk after the last choice when the client asked for usage: no choices, the turn's usage. */
    static ObjectNode usageChunk(String id, long created, String model, ObjectNode usage) {
        ObjectNode root = head(id, "chat.completion.chunk", created, model);
        root.putArray("choices");
        root.set("usage", usage);
        return root;
    }

    static ObjectNode delta(String content) {
        return Json.MAPPER.createObjectNode().put("content", content);
    }

    /** The first delta: the role, no text yet. */
    static ObjectNode roleDelta() {
        return Json.MAPPER.createObjectNode().put("role", "assistant").put("content", "");
    }

    static ObjectNode usage(TurnEvent.Usage usage) {
        ObjectNode u = Json.MAPPER
                .createObjectNode()
                .put("prompt_tokens", usage.inputTokens())
                .put("completion_tokens", usage.outputTokens())
                .put("total_tokens", usage.inputTokens() + usage.outputTokens());
        u.putObject("prompt_tokens_details").put("cached_tokens", usage.cachedInputTokens());
        return u;
    }

    /**
     * OpenAI's {@code finish_reason} for how a turn ended: a normal answer is {@code stop}; an answer cut short because
     * the agent ran out of tool iterations is {@code length}; a module's answer instead of the model's is
     * {@code content_filter}.
     */
    static String finishReason(TurnEvent.Done done) {
        return switch (done.stopReason()) {
            case TurnEvent.Done.MAX_ITERATIONS -> "length";
            case TurnEvent.Done.BLOCKED -> "content_filter";
            default -> "stop";
        };
    }

    /**
     * What a Chat Completions client reads when the turn waits for the user's approval of tool calls: Chat Completions
     * has no word for it, so the answer says which calls wait and where to decide them.
     */
    static String approvalNotice(TurnEvent.AwaitingApproval paused, String sessionId) {
        StringBuilder text = new StringBuilder();
        for (TurnEvent.ApprovalRequired call : paused.pending()) {
            text.append("The agent wants to run '")
                    .append(call.name())
                    .append("' and needs your approval first (")
                    .append(call.reason())
                    .append("). Decide with POST /v1/sessions/")
                    .append(sessionId)
                    .append("/approvals/")
                    .append(call.callId())
                    .append(" {\"decision\": \"approve\" or \"deny\"}. ");
        }
        return text.append("Sending another message denies it.").toString();
    }

    private static ObjectNode head(String id, String object, long created, String model) {
        return Json.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("object", object)
                .put("created", created)
                .put("model", model)
                .putNull("system_fingerprint");
    }
}
