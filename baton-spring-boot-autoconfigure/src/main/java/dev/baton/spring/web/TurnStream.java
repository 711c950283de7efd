package dev.baton.spring.web;

import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.stream.TurnEventRecorder;
import dev.baton.wire.SseEvents;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One turn answered as Server-Sent Events through Spring MVC's {@link SseEmitter}. The turn runs on a virtual thread of
 * its own; the request's thread waits until it is admitted, so that a refusal (which always comes before) is still
 * answered as a JSON error with its status, and only an admitted turn opens the stream. Each event is kept in the
 * turn event log under the id it is sent with, so a client can take the stream up again; a quiet stream gets
 * heartbeats ({@link SseHeartbeats}); a client that goes away cancels the turn unless it asked for a resumable stream.
 */
final class TurnStream implements TurnListener {

    /** How the start went: the turn streams, or it ended without streaming (a replay, a recorded decision). */
    sealed interface Start {
        record Streaming(AdmittedTurn turn) implements Start {}

        record Ended(Object result) implements Start {}
    }

    private final TurnEventRecorder recorder;
    private final SseHeartbeats heartbeats;
    private final SseEmitter emitter;
    private final boolean cancelOnDisconnect;
    private final CompletableFuture<AdmittedTurn> admitted = new CompletableFuture<>();
    private volatile AdmittedTurn turn;
    private volatile boolean gone;
    /** Set once the turn is admitted: the stream's sends and its heartbeat. */
    private volatile SseHeartbeats.Stream stream;

    TurnStream(TurnEventRecorder recorder, SseHeartbeats heartbeats, Duration timeout, boolean cancelOnDisconnect) {
        this.recorder = recorder;
        this.heartbeats = heartbeats;
        this.emitter = new SseEmitter(timeout.toMillis());
        this.cancelOnDisconnect = cancelOnDisconnect;
        emitter.onTimeout(this::clientGone);
        emitter.onError(e -> clientGone());
    }

    SseEmitter emitter() {
        return emitter;
    }

    /**
     * Starts the turn and waits for its admission or its end.
     *
     * @throws RuntimeException what the run threw before the turn was admitted (a refusal)
     */
    Start start(Function<TurnListener, Object> run, String requestId) {
        CompletableFuture<Object> ended = new CompletableFuture<>();
        // the request's trace context (a caller's traceparent, the app's server span) goes with the turn
        Context caller = Context.current();
        Thread.ofVirtual().name("baton-turn-" + requestId).start(caller.wrap(() -> {
            try {
                ended.complete(run.apply(this));
                if (turn != null) emitter.complete();
            } catch (Throwable e) {
                ended.completeExceptionally(e);
                if (turn != null) emitter.completeWithError(e);
            } finally {
                SseHeartbeats.Stream open = stream;
                if (open != null) open.stop();
            }
        }));
        try {
            CompletableFuture.anyOf(admitted, ended).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) throw runtime;
            if (e.getCause() instanceof Error error) throw error;
            throw e;
        }
        if (admitted.isDone()) return new Start.Streaming(admitted.join());
        return new Start.Ended(ended.join());
    }

    @Override
    public void admitted(AdmittedTurn admittedTurn) {
        turn = admittedTurn;
        stream = heartbeats.open(emitter, this::clientGone);
        admitted.complete(admittedTurn);
    }

    @Override
    public void onEvent(TurnEvent event) {
        long id = recorder.record(event);
        if (gone) return;
        SseEvents.Rendered rendered = SseEvents.render(event);
        try {
            SseEmitter.SseEventBuilder sse = SseEmitter.event()
                    .id(Long.toString(id))
                    .name(rendered.type())
                    .data(rendered.json());
            SseHeartbeats.Stream open = stream;
            if (open != null) open.send(sse);
            else emitter.send(sse);
        } catch (IOException | IllegalStateException e) {
            clientGone();
        }
    }

    private void clientGone() {
        gone = true;
        SseHeartbeats.Stream open = stream;
        if (open != null) open.stop();
        AdmittedTurn running = turn;
        if (cancelOnDisconnect && running != null) running.cancellation().cancel();
    }
}
