package dev.baton.core.turn;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A one-way switch that cancels a running turn: the model stream, running tools and the loop all watch it.
 * Listeners registered after cancellation run immediately.
 */
public final class Cancellation {
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    public void cancel() {
        if (cancelled.compareAndSet(false, true)) {
            listeners.forEach(Cancellation::runQuietly);
        }
    }

    public boolean isCancelled() {
        return cancelled.get();
    }

    /** Registers an action to run on cancel; returns a handle that unregisters it. */
    public AutoCloseable onCancel(Runnable action) {
        listeners.add(action);
        if (cancelled.get() && listeners.remove(action)) {
            runQuietly(action);
        }
        return () -> listeners.remove(action);
    }

    private static void runQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException ignored) {
            // a failing listener must not stop the others from cancelling their work
        }
    }
}
