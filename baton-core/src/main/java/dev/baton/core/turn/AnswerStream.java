package dev.baton.core.turn;

import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.text.TextPieces;
import java.util.function.Consumer;

/**
 * The way from the model's text deltas to the client: every delta passes the turn's output filters, and what
 * they release is appended to the answer and sent as a {@link TurnEvent.Chunk}. When the agent has after_ai
 * modules the text is held until they have run ({@link #release}), so the client sees exactly the stored answer.
 * Confined to the turn's thread.
 */
final class AnswerStream {
    private final TextPieces answer;
    private final OutputFilterChain filters;
    private final boolean holdUntilAfterAi;
    private final Consumer<TurnEvent> sink;

    /**
     * @param answer the turn's answer so far (filtered), appended to as text is released
     * @param holdUntilAfterAi whether text waits for the after_ai modules instead of streaming
     */
    AnswerStream(TextPieces answer, OutputFilterChain filters, boolean holdUntilAfterAi, Consumer<TurnEvent> sink) {
        this.answer = answer;
        this.filters = filters;
        this.holdUntilAfterAi = holdUntilAfterAi;
        this.sink = sink;
    }

    /** Whether any text has been released in this turn. */
    boolean isEmpty() {
        return answer.isEmpty();
    }

    /** A text delta from the model (or the runtime's own text). */
    void text(String delta) {
        emit(filters.onChunk(delta));
    }

    /** The end of one model call's text: releases what the filters held back. */
    void endOfCall() {
        emit(filters.flush());
    }

    void thinking(String content) {
        sink.accept(new TurnEvent.Thinking(content));
    }

    /** The answer composed so far, as filtered (what after_ai is given). */
    String answer() {
        return answer.toString();
    }

    /** What the client has seen of the answer: what is stored when the turn ends early. */
    String shown() {
        return holdUntilAfterAi ? "" : answer.toString();
    }

    OutputFilterChain filters() {
        return filters;
    }

    /** Sends the final answer when it was held for after_ai; does nothing when it streamed. */
    void release(String finalAnswer) {
        if (holdUntilAfterAi && !finalAnswer.isEmpty()) {
            sink.accept(new TurnEvent.Chunk(finalAnswer));
        }
    }

    private void emit(String text) {
        if (text.isEmpty()) {
            return;
        }
        answer.append(text);
        if (!holdUntilAfterAi) {
            sink.accept(new TurnEvent.Chunk(text));
        }
    }
}
