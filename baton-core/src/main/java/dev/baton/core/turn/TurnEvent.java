package dev.baton.core.turn;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/** What a running turn emits, in order. The server turns each into one SSE event. */
public sealed interface TurnEvent {

    record Started(String turnId, String sessionId, String requestId) implements TurnEvent {}

    record Chunk(String content) implements TurnEvent {}

    record Thinking(String content) implements TurnEvent {}

    /** @param arguments the parsed arguments, or a JSON string node holding the raw text when it did not parse */
    record ToolCallStarted(String id, String name, JsonNode arguments) implements TurnEvent {}

    /** Either {@code result} (ok) or {@code error} is set. */
    record ToolCallFinished(String id, String name, boolean ok, JsonNode result, String error, long durationMs)
            implements TurnEvent {}

    record Blocked(String response) implements TurnEvent {}

    /**
     * The turn ended with an answer.
     *
     * @param stopReason why the turn stopped, so a client can tell a normal answer from one cut short:
     *     {@link #COMPLETED} (the model answered), {@link #MAX_ITERATIONS} (the model still wanted tools when the
     *     agent's maxIterations ran out; the answer says so), {@link #BLOCKED} (a module answered instead)
     */
    record Done(
            String messageId, String model, Usage usage, long latencyMs, List<String> toolsCalled, String stopReason)
            implements TurnEvent {
        public static final String COMPLETED = "completed";
        public static final String MAX_ITERATIONS = "max_iterations";
        public static final String BLOCKED = "blocked";

        public Done {
            toolsCalled = List.copyOf(toolsCalled);
            java.util.Objects.requireNonNull(stopReason, "stopReason");
        }

        /** A turn the model answered in full. */
        public Done(String messageId, String model, Usage usage, long latencyMs, List<String> toolsCalled) {
            this(messageId, model, usage, latencyMs, toolsCalled, COMPLETED);
        }
    }

    /**
     * @param retryAfter how long the client should wait before trying again, when known (a provider's 429
     *     Retry-After, the time left on an open circuit breaker); null otherwise
     */
    record Failed(String code, String message, boolean retryable, Duration retryAfter) implements TurnEvent {
        public Failed(String code, String message, boolean retryable) {
            this(code, message, retryable, null);
        }
    }

    /**
     * The turn's total usage.
     *
     * @param inputTokens every input token, cached ones included
     * @param cachedInputTokens how many of {@code inputTokens} the provider read from its prompt cache
     */
    record Usage(long inputTokens, long outputTokens, long cachedInputTokens, BigDecimal costUsd) {}
}
