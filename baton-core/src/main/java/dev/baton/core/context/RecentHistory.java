package dev.baton.core.context;

import dev.baton.core.conversation.Message;
import java.util.List;

/**
 * A session's history as a turn found it before storing its user message.
 *
 * @param messages the messages fit for history, oldest first
 * @param newestSeq the seq of the session's newest message when it was found (0: none); -1 when no history was asked
 *     for, so any user message follows it
 */
public record RecentHistory(List<Message> messages, long newestSeq) {

    /** An agent that keeps no history. */
    public static final RecentHistory NONE = new RecentHistory(List.of(), -1);

    public RecentHistory {
        messages = List.copyOf(messages);
    }

    /**
     * Whether {@code user}, just stored, came right after this history: no message was stored between the moment the
     * history was found and the user message, so it is still the turn's history.
     */
    public boolean precedes(Message user) {
        return newestSeq < 0 || user.seq() == newestSeq + 1;
    }
}
