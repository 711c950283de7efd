package dev.baton.runtime.stream;

import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.stream.TurnEventLog.LoggedEvent;

/**
 * An event of a turn whose stream is still open, as the in-process log keeps it. A chunk is kept as the event itself,
 * not its encoding: its text is the very string the turn's answer and the model's reply hold, so a long answer that a
 * stalled client does not read is held once rather than once more as JSON. It is encoded when read (a replay, a second
 * client) or when the turn's stream ends and its events are packed.
 */
sealed interface LiveEvent {
    long id();

    LoggedEvent logged();

    /** An event given in its encoding. */
    record Encoded(LoggedEvent logged) implements LiveEvent {
        @Override
        public long id() {
            return logged.id();
        }
    }

    /** A chunk, encoded when read. */
    record Chunk(long id, TurnEvent.Chunk chunk) implements LiveEvent {
        @Override
        public LoggedEvent logged() {
            return new LoggedEvent(id, TurnEventCodec.type(chunk), TurnEventCodec.encode(chunk));
        }
    }
}
