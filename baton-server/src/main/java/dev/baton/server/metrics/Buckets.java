package dev.baton.server.metrics;

import java.time.Duration;
import java.util.Arrays;

/** Histogram bucket bounds, written as "250ms" or "2.5s" so that a list of them reads like the scale it is. */
final class Buckets {
    private Buckets() {}

    static Duration[] of(String... bounds) {
        return Arrays.stream(bounds).map(Buckets::parse).toArray(Duration[]::new);
    }

    private static Duration parse(String bound) {
        if (bound.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(bound.substring(0, bound.length() - 2)));
        }
        if (bound.endsWith("s")) {
            double seconds = Double.parseDouble(bound.substring(0, bound.length() - 1));
            return Duration.ofMillis(Math.round(seconds * 1000));
        }
        throw new IllegalArgumentException("a bucket bound ends in ms or s: " + bound);
    }
}
