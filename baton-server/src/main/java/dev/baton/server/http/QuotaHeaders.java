package dev.baton.server.http;

import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.TurnListener;
import io.javalin.http.Context;

/** For a turn answered as one JSON document: the rate-limit fields go on the response once the turn is admitted. */
public record QuotaHeaders(Context ctx) implements TurnListener {
    @Override
    public void admitted(AdmittedTurn turn) {
        turn.rate().quotaFields().forEach(ctx::header);
    }

    @Override
    public void onEvent(TurnEvent event) {}
}
