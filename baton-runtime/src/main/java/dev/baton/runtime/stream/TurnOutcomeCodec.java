package dev.baton.runtime.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The runtime's own encoding of a {@link TurnOutcome}, for the idempotency store: a retry is answered with the stored
 * outcome, which each front door renders as it renders a fresh one. JSON text whose {@code turnOutcome} field is 1
 * (the version of this encoding), the records by their components as in {@link TurnEventCodec}.
 */
public final class TurnOutcomeCodec {
    private static final int VERSION = 1;

    /** The stored form: the terminal event in the one field of its kind. */
    private record Stored(
            int turnOutcome,
            Message userMessage,
            Message assistantMessage,
            List<ToolCallRecord> toolCalls,
            TurnEvent.Usage usage,
            String model,
            TurnEvent.Done done,
            TurnEvent.Failed failed,
            TurnEvent.AwaitingApproval awaitingApproval) {}

    private TurnOutcomeCodec() {}

    public static String encode(TurnOutcome o) {
        TurnEvent t = o.terminal();
        Stored stored = new Stored(
                VERSION,
                o.userMessage(),
                o.assistantMessage(),
                o.toolCalls(),
                o.usage(),
                o.model(),
                t instanceof TurnEvent.Done d ? d : null,
                t instanceof TurnEvent.Failed f ? f : null,
                t instanceof TurnEvent.AwaitingApproval a ? a : null);
        try {
            return TurnEventCodec.MAPPER.writeValueAsString(stored);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The outcome {@link #encode} gave; empty for text it did not write (a response a front door stored before the
     * runtime kept outcomes, which cannot be turned back into one).
     */
    public static Optional<TurnOutcome> decode(String text) {
        if (text == null) return Optional.empty();
        Stored s;
        try {
            s = TurnEventCodec.MAPPER.readValue(text, Stored.class);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (s.turnOutcome() != VERSION) return Optional.empty();
        TurnEvent terminal = s.done() != null ? s.done() : s.failed() != null ? s.failed() : s.awaitingApproval();
        return Optional.of(new TurnOutcome(
                s.userMessage(),
                s.assistantMessage(),
                s.toolCalls() == null ? List.of() : s.toolCalls(),
                s.usage(),
                s.model(),
                terminal));
    }
}
