package dev.baton.testkit.sim;

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

    /** Reported token counts that replace the simulator's estimate; a null field keeps the estimate. */
    record UsageOverride(Integer promptTokens, Integer completionTokens) {
        public UsageOverride {
            if ((promptTokens != null && promptTokens < 0) || (completionTokens != null && completionTokens < 0)) {
                throw new IllegalArgumentException("token counts must be >= 0");
            }
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
        var usage = new UsageOverride(promptTokens, completionTokens);
        return switch (this) {
            case Text t -> new Text(t.content(), usage);
            case ToolCalls c -> new ToolCalls(c.text(), c.calls(), usage);
            case Failure f -> f;
        };
    }
}
