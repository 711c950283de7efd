package dev.baton.runtime.stream;

import dev.baton.core.turn.TurnEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * {@link TurnEventLog} in this process: one bounded deque per turn, readers woken by a condition when an event is
 * appended. A turn whose stream ended keeps its events packed ({@link PackedEvents}). Turns are forgotten
 * {@code retention} after their last event (checked as the log is used), and at most {@link #MAX_TURNS} are kept.
 */
final class LocalTurnEventLog implements TurnEventLog {
    static final int MAX_TURNS = 10_000;

    private final TurnEventLogSettings settings;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition appended = lock.newCondition();
    /** By turn id, least recently appended to first (an append moves its turn to the end). */
    private final LinkedHashMap<String, Turn> turns = new LinkedHashMap<>();

    private final Map<String, String> lastTurnOfSession = new LinkedHashMap<>();

    private static final class Turn {
        final String id;
        final TurnOwner owner;
        /** The events of the turn's ended streams, oldest first. */
        PackedEvents packed = PackedEvents.NONE;
        /** The events appended since, after {@link #packed}; null when there are none. */
        Deque<LiveEvent> live;

        long lastId;
        long lastAppendNanos = System.nanoTime();

        Turn(String id, TurnOwner owner) {
            this.id = id;
            this.owner = owner;
        }
    }

    LocalTurnEventLog(TurnEventLogSettings settings) {
        this.settings = settings;
    }

    @Override
    public Writer writer(String turnId, TurnOwner owner) {
        lock.lock();
        try {
            forgetOld();
            Turn turn = turns.remove(turnId);
            if (turn == null) turn = new Turn(turnId, owner);
            turns.put(turnId, turn);
            turn.lastAppendNanos = System.nanoTime();
            lastTurnOfSession.remove(owner.sessionId());
            lastTurnOfSession.put(owner.sessionId(), turnId);
            Turn writing = turn;
            return new Writer() {
                @Override
                public long append(String type, String data) {
                    return LocalTurnEventLog.this.append(
                            writing, id -> new LiveEvent.Encoded(new LoggedEvent(id, type, data)));
                }

                @Override
                public long append(TurnEvent event) {
                    if (event instanceof TurnEvent.Chunk chunk)
                        return LocalTurnEventLog.this.append(writing, id -> new LiveEvent.Chunk(id, chunk));
                    return append(TurnEventCodec.type(event), TurnEventCodec.encode(event));
                }

                @Override
                public void ended() {
                    pack(writing);
                }
            };
        } finally {
            lock.unlock();
        }
    }

    private long append(Turn turn, LongFunction<LiveEvent> numbered) {
        lock.lock();
        try {
            long id = ++turn.lastId;
            if (turn.live == null) turn.live = new ArrayDeque<>();
            turn.live.addLast(numbered.apply(id));
            int excess = turn.packed.size() + turn.live.size() - settings.maxEvents();
            if (excess > 0) {
                int fromPacked = Math.min(excess, turn.packed.size());
                turn.packed = turn.packed.dropFirst(fromPacked);
                for (int i = fromPacked; i < excess; i++) turn.live.removeFirst();
            }
            turn.lastAppendNanos = System.nanoTime();
            // to the end of the order; a turn already forgotten stays forgotten
            if (turns.remove(turn.id) != null) turns.put(turn.id, turn);
            appended.signalAll();
            return id;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Called by the turn's writer, the only one that appends to it: the live events cannot change between the two
     * holds of the lock, and the chunks are encoded outside it (the lock is every turn's).
     */
    private void pack(Turn turn) {
        List<LiveEvent> live;
        lock.lock();
        try {
            if (turn.live == null) return;
            live = List.copyOf(turn.live);
        } finally {
            lock.unlock();
        }
        List<LoggedEvent> ended = new ArrayList<>(live.size());
        for (LiveEvent e : live) ended.add(e.logged());
        lock.lock();
        try {
            turn.packed = turn.packed.with(ended);
            turn.live = null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<TurnOwner> owner(String turnId) {
        lock.lock();
        try {
            forgetOld();
            Turn turn = turns.get(turnId);
            return turn == null ? Optional.empty() : Optional.of(turn.owner);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<String> lastTurn(String sessionId) {
        lock.lock();
        try {
            forgetOld();
            return Optional.ofNullable(lastTurnOfSession.get(sessionId)).filter(turns::containsKey);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Reader reader(String turnId) {
        return new Reader() {
            @Override
            public List<LoggedEvent> read(long afterId, Duration maxWait) {
                long deadline = System.nanoTime() + maxWait.toNanos();
                List<LoggedEvent> found = new ArrayList<>();
                List<LiveEvent> live = new ArrayList<>();
                lock.lock();
                try {
                    while (true) {
                        after(turnId, afterId, found, live);
                        long left = deadline - System.nanoTime();
                        if (!found.isEmpty() || !live.isEmpty() || left <= 0) break;
                        appended.awaitNanos(left);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return List.of();
                } finally {
                    lock.unlock();
                }
                // chunks are encoded here, outside the lock every turn appends under
                for (LiveEvent e : live) found.add(e.logged());
                return found;
            }

            @Override
            public void close() {}
        };
    }

    /** Adds the turn's kept events after {@code afterId}: the packed ones to {@code packed}, then the live ones. */
    private void after(String turnId, long afterId, List<LoggedEvent> packed, List<LiveEvent> live) {
        Turn turn = turns.get(turnId);
        if (turn == null) return;
        turn.packed.addAfter(afterId, packed);
        if (turn.live != null) for (LiveEvent e : turn.live) if (e.id() > afterId) live.add(e);
    }

    /**
     * Drops turns quiet for longer than the retention, and the least recently appended to beyond {@link #MAX_TURNS}.
     * The map is in append order, so this stops at the first turn it keeps: its cost is the turns it drops, not every
     * turn of the last retention period (it runs on every turn, under the log's one lock).
     */
    private void forgetOld() {
        long cutoff = System.nanoTime() - settings.retention().toNanos();
        for (Iterator<Map.Entry<String, Turn>> it = turns.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Turn> e = it.next();
            if (turns.size() <= MAX_TURNS && e.getValue().lastAppendNanos - cutoff >= 0) return;
            it.remove();
            lastTurnOfSession.remove(e.getValue().owner.sessionId(), e.getKey());
        }
    }

    @Override
    public void close() {}
}
