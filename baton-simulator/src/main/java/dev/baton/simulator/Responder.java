package dev.baton.simulator;

import java.util.Optional;

/**
 * A rule written in Java: looks at the request and answers, or returns empty to let the next rule try.
 * Called concurrently for concurrent requests, so it must not keep mutable state.
 */
@FunctionalInterface
public interface Responder {
    Optional<Reply> respond(RecordedRequest request);
}
