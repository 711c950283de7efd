package dev.baton.server.api;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.server.http.SseEvents;

/**
 * Keeps each event of a turn in the {@link TurnEventLog} as it is rendered for the wire, so a client whose stream
 * dropped (or a second client) can read it again from {@code GET /v1/sessions/{id}/turns/{turnId}/events}. The log
 * numbers the events; those numbers are the SSE ids. Confined to the turn's thread.
 */
final class TurnEventRecorder {
    /**
     * What to send: the log's number for the event (0 when it is not kept), its name and its data as JSON text,
     * serialised once for both the log and the wire.
     */
    record Recorded(long id, String type, String json) {}

    private final TurnEventLog log;
    private final Principal caller;
    private TurnEventLog.Writer writer;

    TurnEventRecorder(TurnEventLog log, Principal caller) {
        this.log = log;
        this.caller = caller;
    }

    Recorded record(TurnEvent event) {
        SseEvents.Rendered rendered = SseEvents.render(event);
        if (event instanceof TurnEvent.Started started && log != null) {
            writer = log.writer(
                    started.turnId(),
                    new TurnEventLog.TurnOwner(caller.tenantId(), caller.userId(), started.sessionId()));
        }
        String json = rendered.json();
        long id = writer == null ? 0 : writer.append(rendered.type(), json);
        if (writer != null && event.isTerminal()) writer.ended();
        return new Recorded(id, rendered.type(), json);
    }
}
