package dev.baton.learning.library;

import java.util.List;
import java.util.Objects;

/**
 * One subject, topic or module of the topic library.
 *
 * @param parentId the topic of a module, the subject of a topic; null for a subject
 * @param path the names from the subject down to this entry, e.g. [Physics, Quantum physics]
 */
public record LibraryEntry(
        String id, Granularity granularity, String name, String parentId, String summary, List<String> path) {
    public LibraryEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(granularity, "granularity");
        Objects.requireNonNull(name, "name");
        summary = summary == null ? "" : summary;
        path = List.copyOf(path == null ? List.of(name) : path);
    }
}
