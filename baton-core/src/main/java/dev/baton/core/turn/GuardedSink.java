package dev.baton.core.turn;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a turn's events to the caller's sink. A sink that throws means nobody is listening any more (the
 * client disconnected): the turn is cancelled — its partial answer is still saved — and later events are dropped,
 * so a broken sink can neither crash the turn nor leave it running for no one.
 */
final class GuardedSink implements Consumer<TurnEvent> {
    private static final Logger log = LoggerFactory.getLogger(GuardedSink.class);

    private final Consumer<TurnEvent> sink;
    private final TurnRequest request;
    private boolean broken;

    GuardedSink(Consumer<TurnEvent> sink, TurnRequest request) {
        this.sink = sink;
        this.request = request;
    }

    @Override
    public void accept(TurnEvent event) {
        if (broken) {
            return;
        }
        try {
            sink.accept(event);
        } catch (RuntimeException e) {
            broken = true;
            log.info("request {}: event sink failed, cancelling the turn: {}", request.requestId(), e.toString());
            request.cancellation().cancel();
        }
    }
}
