package dev.baton.core.conversation;

import java.util.List;

/** A page of sessions, newest first; {@code nextCursor} is null on the last page. */
public record SessionPage(List<Session> sessions, String nextCursor) {
    public SessionPage {
        sessions = List.copyOf(sessions);
    }
}
