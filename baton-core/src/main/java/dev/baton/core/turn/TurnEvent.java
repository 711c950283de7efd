package dev.baton.core.turn;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** What a running turn emits, in order. The server turns each into one SSE event. */
public sealed interface TurnEvent {

    /**
     * Whether this event ends what the turn has to say: {@link Done}, {@link Failed}, or {@link AwaitingApproval} (a
     * paused turn says more only once it goes on). Every turn's last event is one of these, and only the last is.
     */
    default boolean isTerminal() {
        return this instanceof Done || this instanceof Failed || this instanceof AwaitingApproval;
    }

    /**
     * The turn's run starts: a new turn, or one that goes on from its stored state (after an approval, or taken over
     * from an instance that died).
     *
     * @param answerSoFar for a turn that goes on, the answer it had released when its state was stored; null for a new
     *     turn. A client that follows a turn across a takeover replaces the answer it assembled with this: the dead
     *     run's model call that was cut is made again, so the chunks that call had sent are not part of the answer.
     */
    record Started(String turnId, String sessionId, String requestId, String answerSoFar) implements TurnEvent {
        /** A new turn. */
        public Started(String turnId, String sessionId, String requestId) {
            this(turnId, sessionId, requestId, null);
        }
    }

    record Chunk(String content) implements TurnEvent {}

    record Thinking(String content) implements TurnEvent {}

    /** @param arguments the parsed arguments, or a JSON string node holding the raw text when it did not parse */
    record ToolCallStarted(String id, String name, JsonNode arguments) implements TurnEvent {}

    /** Either {@code result} (ok) or {@code error} is set. */
    record ToolCallFinished(String id, String name, boolean ok, JsonNode result, String error, long durationMs)
            implements TurnEvent {}

    record Blocked(String response) implements TurnEvent {}

    /**
     * A tool call could not run because the user has not connected their own account on the tool's server; sent just
     * before that call's {@link ToolCallFinished}, so a client can offer to connect (a button to {@code connectUrl}).
     *
     * @param toolCallId the model's id of the call
     * @param server the server's configured name
     * @param connectUrl Baton's path that starts the authorization with the server's identity provider
     */
    record ConnectRequired(String toolCallId, String server, String connectUrl) implements TurnEvent {}

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
     * A tool call the model asked for waits for the user's approval (see {@link ToolApprovals}); it has not run. One
     * per held call, just before {@link AwaitingApproval}.
     *
     * @param callId names the call for the decision (unique; {@link ToolApprovals.Pending#callId()})
     * @param toolCallId the model's id of the call, as later {@code ToolCallStarted}/{@code ToolCallFinished} use
     * @param arguments the arguments as the model sent them
     * @param reason why the call needs approval
     * @param expiresAt when the call is denied if nobody decided
     * @param summary what the call would do, in one line in the user's terms ("Delete the task 'buy milk'"), as its
     *     tool summarised it when the call was held ({@code Tool#summary}); null when the tool has none (a client
     *     then shows the name and arguments), and in events stored before summaries existed
     */
    record ApprovalRequired(
            String callId,
            String toolCallId,
            String name,
            JsonNode arguments,
            String reason,
            Instant expiresAt,
            String summary)
            implements TurnEvent {

        /** A held call whose tool has no summary. */
        public ApprovalRequired(
                String callId, String toolCallId, String name, JsonNode arguments, String reason, Instant expiresAt) {
            this(callId, toolCallId, name, arguments, reason, expiresAt, null);
        }
    }

    /**
     * The turn stopped before running the calls announced by {@link ApprovalRequired}: its state is stored and it goes
     * on when the user decides (on any instance). A terminal event, like {@link Done} and {@link Failed}; nothing is
     * stored as the answer yet.
     *
     * @param pending the calls waiting, as the {@link ApprovalRequired} events announced them
     * @param usage the turn's usage so far
     * @param toolsCalled the tools that ran so far in this turn
     */
    record AwaitingApproval(
            String turnId,
            List<ApprovalRequired> pending,
            String model,
            Usage usage,
            long latencyMs,
            List<String> toolsCalled)
            implements TurnEvent {
        public AwaitingApproval {
            pending = List.copyOf(pending);
            toolsCalled = List.copyOf(toolsCalled);
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

        /**
         * A turn stopped by its request's deadline, whichever noticed first: the dispatcher's timer or a model call
         * whose timeout was what was left of the request's time.
         */
        public static Failed requestTimeout(Duration timeout) {
            return new Failed("request_timeout", "the turn took longer than " + timeout.toSeconds() + "s", true);
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
