package dev.baton.core.context;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.baton.core.conversation.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The newest messages of the sessions whose turns this instance ran, kept between turns so that the next turn of a
 * session does not read its history again: a tool turn's history query was a sixth of what SQLite cost it, and a
 * round trip on PostgreSQL.
 *
 * <p>A window is only ever served against the session's message count, which is also the seq of its newest message
 * (each stored message bumps the count and takes it as its seq): a window whose newest seq is not the count the turn
 * read with its session is not used. A message stored by any path that does not go through {@link #stored} (a paused
 * turn superseded, a turn taken over, another instance's turn) moves the count on, so the window is passed over and the
 * history read from the store. The count is read before the turn holds its session, so the turn also checks that its
 * own user message took the seq right after the window's newest ({@link RecentHistory#precedes}) and reads the history
 * again when it did not. Every instance keeps its own windows; none is ever shared.
 *
 * <p>Bounded by the characters the windows hold, so a few long answers cannot grow it without limit.
 */
public final class RecentWindows {

    /** About 32 MB of text at most (two bytes a character, most of it strings the turns held anyway). */
    private static final long MAX_CHARS = 16L * 1024 * 1024;

    /** What a message costs the bound beyond its text: the record, its ids and time. */
    private static final int MESSAGE_OVERHEAD = 200;

    /**
     * @param newestSeq the seq of the session's newest message, 0 for a session without messages
     * @param keep how many messages the window holds at most (the history limit it was loaded for)
     * @param whole whether the window holds every message of the session
     * @param messages oldest first, at most {@code keep}
     */
    private record Window(String userId, long newestSeq, int keep, boolean whole, List<Message> messages) {}

    private final Cache<String, Window> windows = Caffeine.newBuilder()
            .maximumWeight(MAX_CHARS)
            .<String, Window>weigher((id, w) -> weight(w))
            .build();

    /**
     * The session's newest {@code limit} messages, oldest first, when this instance holds them as of {@code
     * messageCount}; empty when it does not.
     */
    public Optional<List<Message>> newest(String userId, String sessionId, long messageCount, int limit) {
        Window w = windows.getIfPresent(sessionId);
        if (w == null || !w.userId().equals(userId) || w.newestSeq() != messageCount) return Optional.empty();
        if (limit > w.keep() && !w.whole()) return Optional.empty();
        List<Message> m = w.messages();
        return Optional.of(m.size() <= limit ? m : m.subList(m.size() - limit, m.size()));
    }

    /** The newest messages the store returned for {@code limit}: the session's window from now on. */
    public void loaded(String userId, String sessionId, List<Message> newest, int limit) {
        long newestSeq = newest.isEmpty() ? 0 : newest.getLast().seq();
        windows.put(sessionId, new Window(userId, newestSeq, limit, newest.size() < limit, List.copyOf(newest)));
    }

    /**
     * A message this instance just stored, with its seq: it joins its session's window when it comes right after the
     * window's newest; otherwise a message came between, and the window is dropped.
     */
    public void stored(Message message) {
        windows.asMap().computeIfPresent(message.sessionId(), (id, w) -> {
            if (!w.userId().equals(message.userId()) || message.seq() != w.newestSeq() + 1) return null;
            List<Message> next = new ArrayList<>(w.messages().size() + 1);
            next.addAll(w.messages());
            next.add(message);
            boolean whole = w.whole() && next.size() <= w.keep();
            List<Message> kept = next.size() <= w.keep() ? next : next.subList(next.size() - w.keep(), next.size());
            return new Window(w.userId(), message.seq(), w.keep(), whole, List.copyOf(kept));
        });
    }

    private static int weight(Window w) {
        long chars = 0;
        for (Message m : w.messages()) chars += m.content().length() + MESSAGE_OVERHEAD;
        return (int) Math.min(Integer.MAX_VALUE, chars);
    }
}
