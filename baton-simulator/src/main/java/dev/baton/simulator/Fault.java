package dev.baton.simulator;

/**
 * A failure the simulator plays instead of (or in the middle of) a normal answer. Used as a rule's reply or
 * queued with {@link LlmSimulator#enqueueFault(Fault)} for the next chat request.
 */
public sealed interface Fault {

    /** Answers with an HTTP error status and an OpenAI-shaped error body. */
    record HttpError(int status, String type, String code, String message) implements Fault {
        public HttpError {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an error status is 4xx or 5xx, got " + status);
            }
            if (type == null || type.isBlank()) {
                throw new IllegalArgumentException("type is required");
            }
            message = message == null || message.isBlank() ? "Simulated error " + status : message;
        }
    }

    /** Answers 429 with a {@code Retry-After} header in whole seconds. */
    record RateLimited(int retryAfterSeconds) implements Fault {
        public RateLimited {
            if (retryAfterSeconds < 0) {
                throw new IllegalArgumentException("retryAfterSeconds must be >= 0");
            }
        }
    }

    /**
     * Google's error answer, as Gemini's OpenAI-compatible endpoint sends it: a JSON array holding one {@code error}
     * with the HTTP code, Google's status name (e.g. {@code RESOURCE_EXHAUSTED}) and the message; for a 429 the wait
     * comes as a {@code google.rpc.RetryInfo} detail ({@code "retryDelay": "26s"}) and there is no {@code Retry-After}
     * header.
     *
     * @param reason the {@code google.rpc.ErrorInfo} reason, e.g. {@code API_KEY_INVALID} (Gemini's answer to a wrong
     *     key is a 400 with it), or null for none
     * @param retryDelay the wait the body names, or null for none
     */
    record GoogleError(int status, String googleStatus, String message, String reason, java.time.Duration retryDelay)
            implements Fault {
        public GoogleError {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an error status is 4xx or 5xx, got " + status);
            }
            if (googleStatus == null || googleStatus.isBlank()) {
                throw new IllegalArgumentException("googleStatus is required");
            }
            message = message == null || message.isBlank() ? "Simulated error " + status : message;
        }
    }

    /** Reads the request and sends nothing until the client goes away or the simulator closes. */
    record Hang() implements Fault {}

    /**
     * Streams {@code chunks} content chunks of the scripted reply (the opening role-only chunk does not count)
     * and then closes the connection without a final chunk or {@code [DONE]}. On a non-streaming request the
     * connection is closed before any response byte is written.
     */
    record DisconnectAfter(int chunks) implements Fault {
        public DisconnectAfter {
            if (chunks < 0) {
                throw new IllegalArgumentException("chunks must be >= 0");
            }
        }
    }

    /**
     * Streams {@code afterChunks} content chunks, then a {@code data: {not json} event, then the rest of the
     * stream as usual. On a non-streaming request the body is {@code {not json} with status 200.
     */
    record MalformedChunk(int afterChunks) implements Fault {
        public MalformedChunk {
            if (afterChunks < 0) {
                throw new IllegalArgumentException("afterChunks must be >= 0");
            }
        }
    }

    /**
     * Streams {@code afterChunks} content chunks, then the wire's in-stream error (Anthropic's
     * {@code event: error}, an OpenAI {@code data: {"error": ...}} event, an Ollama {@code {"error": ...}} line)
     * and ends the response normally, without the stream's own completion. On a non-streaming request it is an
     * HTTP error: 529 for {@code overloaded_error}, else 500.
     *
     * @param type the error type, e.g. Anthropic's {@code overloaded_error} or {@code api_error}
     */
    record StreamError(int afterChunks, String type, String message) implements Fault {
        public StreamError {
            if (afterChunks < 0) {
                throw new IllegalArgumentException("afterChunks must be >= 0");
            }
            if (type == null || type.isBlank()) {
                throw new IllegalArgumentException("type is required");
            }
            message = message == null || message.isBlank() ? "Simulated stream error" : message;
        }

        /** The status the same failure has when it happens before the response started. */
        int status() {
            return type.equals("overloaded_error") ? 529 : 500;
        }
    }

    /**
     * Streams {@code chunks} content chunks of the scripted reply, then sends nothing until {@code release} is
     * counted down (then the stream goes on and ends normally), the client goes away or the simulator closes. A
     * test reaches "the model is streaming" deterministically with it, and holds the turn there as long as it needs;
     * a latch never counted down is a hang after {@code chunks} chunks. On a non-streaming request the hold comes
     * before the response.
     */
    record HoldAfter(int chunks, java.util.concurrent.CountDownLatch release) implements Fault {
        public HoldAfter {
            if (chunks < 0) {
                throw new IllegalArgumentException("chunks must be >= 0");
            }
            java.util.Objects.requireNonNull(release, "release");
        }
    }

    /** Anthropic's "overloaded" answer: HTTP 529 with an {@code overloaded_error} body. */
    static Fault overloaded() {
        return new HttpError(529, "overloaded_error", null, "Overloaded");
    }

    /** Anthropic's overload that arrives mid-stream as {@code event: error} after {@code afterChunks} chunks. */
    static Fault overloadedMidStream(int afterChunks) {
        return new StreamError(afterChunks, "overloaded_error", "Overloaded");
    }

    static Fault http500() {
        return new HttpError(500, "server_error", null, "The server had an error while processing your request.");
    }

    static Fault http503() {
        return new HttpError(503, "server_error", "overloaded", "The engine is currently overloaded.");
    }

    static Fault rateLimited(int retryAfterSeconds) {
        return new RateLimited(retryAfterSeconds);
    }

    static Fault hang() {
        return new Hang();
    }

    static Fault disconnectAfter(int chunks) {
        return new DisconnectAfter(chunks);
    }

    /** See {@link HoldAfter}. */
    static Fault holdAfter(int chunks, java.util.concurrent.CountDownLatch release) {
        return new HoldAfter(chunks, release);
    }

    static Fault malformedChunk(int afterChunks) {
        return new MalformedChunk(afterChunks);
    }
}
