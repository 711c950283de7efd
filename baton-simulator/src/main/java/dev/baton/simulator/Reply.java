package dev.baton.simulator;

import java.util.List;
import java.util.Objects;

/** What a rule answers: assistant text, tool calls, or a fault. */
public sealed interface Reply {

    /** An assistant text answer ({@code finish_reason: "stop"}). */
    record Text(String content, UsageOverride usage) implements Reply {
        public Text {
            Objects.requireNonNull(content, "content");
        }
    }

    /**
     * Tool calls ({@code finish_reason: "tool_calls"}), optionally preceded by assistant text.
     *
     * @param text text sent before the calls; empty for none
     */
    record ToolCalls(String text, List<ToolCall> calls, UsageOverride usage) implements Reply {
        public ToolCalls {
            text = text == null ? "" : text;
            calls = List.copyOf(calls);
            if (calls.isEmpty()) {
                throw new IllegalArgumentException("at least one tool call");
            }
        }
    }

    /**
     * A fault. Faults that stream part of an answer first ({@link Fault.DisconnectAfter},
     * {@link Fault.MalformedChunk}) stream {@code partial}, or the script's fallback text when it is null.
     */
    record Failure(Fault fault, Reply partial) implements Reply {
        public Failure {
            Objects.requireNonNull(fault, "fault");
            if (partial instanceof Failure) {
                throw new IllegalArgumentException("the partial answer of a fault cannot be a fault");
            }
        }
    }

    /**
     * One tool call.
     *
     * @param argumentsJson the raw arguments text; deliberately not validated, so scripts can send broken JSON
     */
    record ToolCall(String name, String argumentsJson) {
        public ToolCall {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("tool name is required");
            }
            argumentsJson = argumentsJson == null || argumentsJson.isBlank() ? "{}" : argumentsJson;
        }
    }

    /**
     * Reported token counts that replace the simulator's estimate; a null field keeps the estimate.
     *
     * @param promptTokens all input tokens, cached ones included (OpenAI's {@code prompt_tokens})
     * @param cachedPromptTokens how many of the prompt tokens the provider read from its prompt cache: OpenAI's
     *     {@code prompt_tokens_details.cached_tokens}, Anthropic's {@code cache_read_input_tokens} (Anthropic's
     *     {@code input_tokens} then counts the rest); null for none. Ollama reports no cache
     */
    record UsageOverride(Integer promptTokens, Integer completionTokens, Integer cachedPromptTokens) {
        public UsageOverride {
            if ((promptTokens != null && promptTokens < 0)
                    || (completionTokens != null && completionTokens < 0)
                    || (cachedPromptTokens != null && cachedPromptTokens < 0)) {
                throw new IllegalArgumentException("token counts must be >= 0");
            }
            if (promptTokens != null && cachedPromptTokens != null && cachedPromptTokens > promptTokens) {
                throw new IllegalArgumentException("cached prompt tokens are part of the prompt tokens: "
                        + cachedPromptTokens + " > " + promptTokens);
            }
        }

        /** Counts without cached prompt tokens. */
        public UsageOverride(Integer promptTokens, Integer completionTokens) {
            this(promptTokens, completionTokens, null);
        }
    }

    static Reply text(String content) {
        return new Text(content, null);
    }

    static Reply toolCall(String name, String argumentsJson) {
        return new ToolCalls("", List.of(new ToolCall(name, argumentsJson)), null);
    }

    static Reply toolCalls(ToolCall... calls) {
        return new ToolCalls("", List.of(calls), null);
    }

    static Reply fault(Fault fault) {
        return new Failure(fault, null);
    }

    /** This reply reporting the given token counts instead of the estimate (faults carry no usage). */
    default Reply withUsage(Integer promptTokens, Integer completionTokens) {
        return withUsage(new UsageOverride(promptTokens, completionTokens));
    }

    /**
     * This reply reporting the given token counts, {@code cachedPromptTokens} of the prompt tokens read from the
     * provider's prompt cache (faults carry no usage).
     */
    default Reply withUsage(Integer promptTokens, Integer completionTokens, Integer cachedPromptTokens) {
        return withUsage(new UsageOverride(promptTokens, completionTokens, cachedPromptTokens));
    }

    /** This reply reporting {@code usage} instead of the estimate (faults carry no usage). */
    default Reply withUsage(UsageOverride usage) {
        return switch (this) {
            case Text t -> new Text(t.content(), usage);
            case ToolCalls c -> new ToolCalls(c.text(), c.calls(), usage);
            case Failure f -> f;
        };
    }
}
