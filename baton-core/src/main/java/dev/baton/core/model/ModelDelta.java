package dev.baton.core.model;

/**
 * A piece of a streaming model response, delivered as it arrives. Every kind proves the model is answering (a
 * time-to-first-token limit counts any of them); only text is part of the answer the client sees as it streams.
 */
public sealed interface ModelDelta {
    /** A piece of the answer's text. */
    record Text(String content) implements ModelDelta {}

    /** A piece of the model's reasoning summary, when the provider gives one. */
    record Thinking(String content) implements ModelDelta {}

    /**
     * A piece of a tool call as the model writes it. It is progress, not part of the answer: the finished
     * {@link ModelReply#toolCalls()} are the only authority on what the model asked for, and the client sees tool
     * calls only once the model has finished. A gateway that retries may already have delivered pieces of an
     * abandoned attempt, so consumers must not assemble calls from these.
     *
     * <p>Carries what providers stream anyway (rather than a bare "still working" signal) so that a consumer can
     * show which tool is being prepared without another change to every gateway.
     *
     * @param index the call's position among this response's tool calls, from 0
     * @param id the provider's call id when it is known at this point; null otherwise
     * @param name the tool's name when it is known at this point; null otherwise
     * @param argumentsFragment the next piece of the raw arguments text (a provider that sends calls whole sends
     *     all of it at once); never null
     */
    record ToolCallDelta(int index, String id, String name, String argumentsFragment) implements ModelDelta {
        public ToolCallDelta {
            if (index < 0) {
                throw new IllegalArgumentException("index must be >= 0, got " + index);
            }
            argumentsFragment = argumentsFragment == null ? "" : argumentsFragment;
        }
    }
}
