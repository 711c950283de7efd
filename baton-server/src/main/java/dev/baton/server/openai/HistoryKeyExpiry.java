package dev.baton.server.openai;

import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.runtime.job.RepeatingJob;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets the door's history digests and response ids after {@link #KEPT}: they are deleted with their session too,
 * but a session that lives on keeps one row per turn. A conversation resumed after that long starts a new session (a
 * session idle that long is usually completed anyway: the default inactivity timeout is a day).
 */
public final class HistoryKeyExpiry {
    private static final Logger log = LoggerFactory.getLogger(HistoryKeyExpiry.class);
    /** How long a digest is kept. */
    public static final Duration KEPT = Duration.ofDays(30);

    private static final Duration EVERY = Duration.ofHours(1);

    private final HistoryKeys keys;
    private final Clock clock;

    HistoryKeyExpiry(HistoryKeys keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    /** Runs {@link #expire} every hour until the job is closed (safe on every instance at once). */
    public static RepeatingJob start(HistoryKeys keys, Clock clock) {
        var expiry = new HistoryKeyExpiry(keys, clock);
        return RepeatingJob.start(
                "baton-history-key-expiry", EVERY, expiry::expire, log, "history digests not expired");
    }

    /** Deletes the digests recorded more than {@link #KEPT} ago; returns how many. */
    int expire() {
        int deleted = keys.deleteOlderThan(clock.instant().minus(KEPT));
        if (deleted > 0) log.info("forgot {} history digests older than {}", deleted, KEPT);
        return deleted;
    }
}
