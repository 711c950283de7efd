package dev.baton.runtime.experiment;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What another instance may change (experiments, runtime flag values), read from the database at most once per
 * {@code maxAge} and kept in between; a change made here is seen at once ({@link #invalidate}). When a read fails the
 * last value is kept for another {@code maxAge} ({@code empty} before the first read), so a database outage costs one
 * failed read per period, not one per request.
 */
public final class SharedSnapshot<T> {
    private static final Logger log = LoggerFactory.getLogger(SharedSnapshot.class);

    private final String what;
    private final Supplier<T> read;
    private final T empty;
    private final long maxAgeNanos;
    private final LongSupplier nanoTime;
    private volatile T value;
    private volatile long readAt;
    private volatile boolean stale = true;

    public SharedSnapshot(String what, Supplier<T> read, T empty, Duration maxAge) {
        this(what, read, empty, maxAge, System::nanoTime);
    }

    SharedSnapshot(String what, Supplier<T> read, T empty, Duration maxAge, LongSupplier nanoTime) {
        this.what = Objects.requireNonNull(what, "what");
        this.read = Objects.requireNonNull(read, "read");
        this.empty = Objects.requireNonNull(empty, "empty");
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    public T get() {
        T current = value;
        if (current != null && !stale && nanoTime.getAsLong() - readAt < maxAgeNanos) return current;
        synchronized (this) {
            if (value != null && !stale && nanoTime.getAsLong() - readAt < maxAgeNanos) return value;
            try {
                value = read.get();
            } catch (RuntimeException e) {
                log.warn("{} not re-read, the last one read stays in use: {}", what, e.toString());
                if (value == null) value = empty;
            }
            readAt = nanoTime.getAsLong();
            stale = false;
            return value;
        }
    }

    /** The next {@link #get} reads again. */
    public void invalidate() {
        stale = true;
    }
}
