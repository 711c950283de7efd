package dev.baton.app;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an assembly opened, closed newest first: a failing close is logged and does not keep the rest open. Used by
 * {@link BatonApp} and by the front doors that open their own parts around it.
 */
public final class OpenedResources implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OpenedResources.class);

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Keeps {@code resource} to close, and gives it back. */
    public <T extends AutoCloseable> T add(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Closes everything kept, newest first. */
    @Override
    public void close() {
        while (!opened.isEmpty()) {
            AutoCloseable next = opened.pop();
            try {
                next.close();
            } catch (Exception e) {
                log.warn("closing {} failed: {}", next.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
