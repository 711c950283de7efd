package dev.baton.runtime.stream;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;

/**
 * Keeps each event of one turn in the {@link TurnEventLog} as it happens, so a client whose stream dropped (or a second
 * client) can read it again: the turn's {@code Started} opens its log (a new turn's, or a paused turn's going on), its
 * terminal event tells the log the stream ended for now. A front door that streams sends each event under the number
 * this returns. Confined to the turn's thread.
 */
public final class TurnEventRecorder {
    /** Null: nothing is kept. */
    private final TurnEventLog log;

    private final Principal caller;
    private TurnEventLog.Writer writer;

    /**
     * @param log where the turn's events are kept; null to keep none
     * @param caller whose turn it is (who may follow it: see {@link FollowedTurns})
     */
    public TurnEventRecorder(TurnEventLog log, Principal caller) {
        this.log = log;
        this.caller = caller;
    }

    /** Keeps {@code event}; returns its number in the turn's log (its SSE id), or 0 when it is not kept. */
    public long record(TurnEvent event) {
        if (event instanceof TurnEvent.Started started && log != null) {
            writer = log.writer(
                    started.turnId(),
                    new TurnEventLog.TurnOwner(caller.tenantId(), caller.userId(), started.sessionId()));
        }
        if (writer == null) return 0;
        long id = writer.append(event);
        if (event.isTerminal()) writer.ended();
        return id;
    }
}
