package dev.baton.server.http;

import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.TurnListener;
import io.javalin.http.Context;
import java.util.function.Consumer;

/**
 * For a turn answered as one JSON document: the rate-limit fields go on the response once the turn is admitted, and
 * each event goes to {@code events} (kept for clients that follow the turn).
 */
public record QuotaHeaders(Context ctx, Consumer<TurnEvent> events) implements TurnListener {
    public QuotaHeaders(Context ctx) {
        this(ctx, event -> {});
    }

    @Override
    public void admitted(AdmittedTurn turn) {
        turn.rate().quotaFields().forEach(ctx::header);
    }

    @Override
    public void onEvent(TurnEvent event) {
        events.accept(event);
    }
}
