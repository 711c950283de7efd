package dev.baton.learning.content;

import java.util.Locale;

/** Where a content job is: waiting for a worker, being generated, done, or given up on. */
public enum JobStatus {
    QUEUED,
    RUNNING,
    COMPLETED,
    FAILED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static JobStatus fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    public boolean finished() {
        return this == COMPLETED || this == FAILED;
    }
}
