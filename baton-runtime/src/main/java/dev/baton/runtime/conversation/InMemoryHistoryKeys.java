package dev.baton.runtime.conversation;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link HistoryKeys} in one process's memory. */
final class InMemoryHistoryKeys implements HistoryKeys {
    private record Key(String userId, String digest) {}

    private record Entry(Position position, Instant at) {}

    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();

    @Override
    public Optional<Position> find(String userId, String digest) {
        return Optional.ofNullable(entries.get(new Key(userId, digest))).map(Entry::position);
    }

    @Override
    public void record(String userId, String digest, Position position, Instant at) {
        entries.put(
                new Key(Objects.requireNonNull(userId), Objects.requireNonNull(digest)),
                new Entry(Objects.requireNonNull(position), Objects.requireNonNull(at)));
    }

    @Override
    public int deleteOlderThan(Instant cutoff) {
        int before = entries.size();
        entries.values().removeIf(e -> e.at().isBefore(cutoff));
        return before - entries.size();
    }
}
