package dev.baton.providers.resilience;

import java.time.Duration;

/** Waits between retries; injected so that tests neither sleep for real nor depend on timing. */
@FunctionalInterface
public interface Sleeper {

    /** Blocks the calling thread; an interrupt (the turn was cancelled) ends the wait early. */
    Sleeper SYSTEM = wait -> Thread.sleep(wait);

    void sleep(Duration wait) throws InterruptedException;
}
