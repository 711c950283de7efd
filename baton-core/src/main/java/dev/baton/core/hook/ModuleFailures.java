package dev.baton.core.hook;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counts module failures (throws, timeouts) by module and hook; thread-safe. Read by tests and metrics. */
public final class ModuleFailures {

    /** How a module failed. */
    public enum Kind {
        THREW,
        TIMED_OUT
    }

    /** What a count is counted by. */
    public record Key(String module, Hook hook, Kind kind) {}

    private final Map<Key, LongAdder> counts = new ConcurrentHashMap<>();

    void record(String module, Hook hook, Kind kind) {
        counts.computeIfAbsent(new Key(module, hook, kind), k -> new LongAdder())
                .increment();
    }

    /** All failures so far. */
    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Failures of one module on one hook, of either kind. */
    public long count(String module, Hook hook) {
        return counts.entrySet().stream()
                .filter(e -> e.getKey().module().equals(module) && e.getKey().hook() == hook)
                .mapToLong(e -> e.getValue().sum())
                .sum();
    }

    /** Failures of one kind, of every module. */
    public long count(Kind kind) {
        return counts.entrySet().stream()
                .filter(e -> e.getKey().kind() == kind)
                .mapToLong(e -> e.getValue().sum())
                .sum();
    }

    /** A snapshot of every count. */
    public Map<Key, Long> snapshot() {
        Map<Key, Long> copy = new java.util.HashMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return Map.copyOf(copy);
    }
}
