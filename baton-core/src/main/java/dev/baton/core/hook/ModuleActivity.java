package dev.baton.core.hook;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How often and for how long each module ran on each hook, and how often it blocked (a message before the model, an
 * answer after it); thread-safe. Read by metrics when scraped, so the core needs no metrics library.
 */
public final class ModuleActivity {

    /** What a figure is kept by. */
    public record Key(String module, Hook hook) {}

    /** Runs and their total time, and blocks, so far. */
    public record Figures(long runs, long totalNanos, long blocks) {}

    private static final class Counts {
        final LongAdder runs = new LongAdder();
        final LongAdder nanos = new LongAdder();
        final LongAdder blocks = new LongAdder();
    }

    private final Map<Key, Counts> counts = new ConcurrentHashMap<>();

    void ran(String module, Hook hook, long nanos) {
        Counts c = of(module, hook);
        c.runs.increment();
        c.nanos.add(nanos);
    }

    void blocked(String module, Hook hook) {
        of(module, hook).blocks.increment();
    }

    /** The figures of one module on one hook; zeroes when it never ran there. */
    public Figures figures(Key key) {
        Counts c = counts.get(key);
        return c == null ? new Figures(0, 0, 0) : new Figures(c.runs.sum(), c.nanos.sum(), c.blocks.sum());
    }

    /** Every module and hook that ran so far. */
    public java.util.Set<Key> keys() {
        return java.util.Set.copyOf(counts.keySet());
    }

    private Counts of(String module, Hook hook) {
        return counts.computeIfAbsent(new Key(module, hook), k -> new Counts());
    }
}
