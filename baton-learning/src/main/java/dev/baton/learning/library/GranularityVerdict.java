package dev.baton.learning.library;

import java.util.Objects;

/**
 * How broad a learning request is, and why.
 *
 * @param match the library entry the verdict rests on, or null when the request is not in the library
 */
public record GranularityVerdict(Granularity granularity, String reasoning, TopicMatch match) {
    public GranularityVerdict {
        Objects.requireNonNull(granularity, "granularity");
        Objects.requireNonNull(reasoning, "reasoning");
    }

    public boolean inLibrary() {
        return match != null;
    }
}
