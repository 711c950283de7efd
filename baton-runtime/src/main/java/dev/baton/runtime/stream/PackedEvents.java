package dev.baton.runtime.stream;

import dev.baton.runtime.stream.TurnEventLog.LoggedEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

/**
 * A turn's events after its stream ended, in three arrays instead of three objects per event. The in-process log
 * keeps thousands of finished turns for minutes: objects that live that long reach the old generation, and the
 * collector's marking walks every one of them, again and again (measured in baton-bench: 70 concurrent mark cycles
 * in a 100 s run with the events kept as objects, 4 with none kept). Packed, a turn is a few objects whatever its
 * event count; an event is made again as it is read, which only a replay or a second client does.
 *
 * <p>The kept events' numbers are consecutive (they are numbered as appended, and only the oldest are dropped), so an
 * event's number is {@code firstId} plus its position. Immutable; {@link #dropFirst} shares the arrays.
 */
final class PackedEvents {
    static final PackedEvents NONE = new PackedEvents(1, new String[0], new byte[0], new int[0], 0);

    private final long firstId;
    private final String[] types;
    /**
     * Every event's data one after another in UTF-8; event i is {@code data[ends[i-1], ends[i])}. Bytes rather than
     * one String: a single character beyond Latin-1 in any event would make a String two bytes a character for all.
     */
    private final byte[] data;

    private final int[] ends;
    /** The first position still kept: the ones before it were dropped. */
    private final int start;

    private PackedEvents(long firstId, String[] types, byte[] data, int[] ends, int start) {
        this.firstId = firstId;
        this.types = types;
        this.data = data;
        this.ends = ends;
        this.start = start;
    }

    /** These events followed by {@code next}, whose numbers continue this one's. */
    PackedEvents with(Collection<LoggedEvent> next) {
        if (next.isEmpty()) return this;
        int kept = size();
        int count = kept + next.size();
        String[] allTypes = new String[count];
        int[] allEnds = new int[count];
        int from = start == 0 ? 0 : ends[start - 1];
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(data.length - from + next.size() * 64);
        bytes.write(data, from, data.length - from);
        for (int i = 0; i < kept; i++) {
            allTypes[i] = types[start + i];
            allEnds[i] = ends[start + i] - from;
        }
        int i = kept;
        long first = kept > 0 ? firstId() : next.iterator().next().id();
        for (LoggedEvent e : next) {
            if (e.id() != first + i) throw new IllegalArgumentException("event " + e.id() + " out of sequence");
            allTypes[i] = e.type();
            bytes.writeBytes(e.data().getBytes(StandardCharsets.UTF_8));
            allEnds[i++] = bytes.size();
        }
        return new PackedEvents(first, allTypes, bytes.toByteArray(), allEnds, 0);
    }

    /** Without the oldest {@code n}. */
    PackedEvents dropFirst(int n) {
        if (n <= 0) return this;
        if (n >= size()) return NONE;
        return new PackedEvents(firstId, types, data, ends, start + n);
    }

    int size() {
        return types.length - start;
    }

    /** Adds the kept events numbered above {@code afterId} to {@code out}, oldest first. */
    void addAfter(long afterId, List<LoggedEvent> out) {
        long first = firstId();
        int from = (int) Math.max(0, Math.min(size(), afterId - first + 1));
        for (int i = start + from; i < types.length; i++) {
            int begin = i == 0 ? 0 : ends[i - 1];
            out.add(new LoggedEvent(
                    firstId + i, types[i], new String(data, begin, ends[i] - begin, StandardCharsets.UTF_8)));
        }
    }

    /** The number of the oldest kept event. */
    private long firstId() {
        return firstId + start;
    }
}
