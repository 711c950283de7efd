package dev.baton.core.hook;

import java.util.Locale;

/** The points in a session's life where modules run (DESIGN §4). */
public enum Hook {
    /** A session was started. Asynchronous: never delays the caller. */
    SESSION_START("session:start", false),
    /** A session was completed (by the user, a limit or inactivity). Asynchronous. */
    SESSION_END("session:end", false),
    /** A user message arrived. Asynchronous, fire and forget: never delays the turn. */
    ON_MESSAGE("chat:on_message", false),
    /** Before the model is called. Blocking: may modify the user message, add guidance or block the turn. */
    BEFORE_AI("chat:before_ai", true),
    /** After the model answered, before the answer is saved. Blocking: may replace the answer. */
    AFTER_AI("chat:after_ai", true);

    private final String wireName;
    private final boolean blocking;

    Hook(String wireName, boolean blocking) {
        this.wireName = wireName;
        this.blocking = blocking;
    }

    /** The name used in configuration, logs and webhook payloads, e.g. {@code chat:before_ai}. */
    public String wireName() {
        return wireName;
    }

    /** Whether the turn (or caller) waits for the hook's result. */
    public boolean blocking() {
        return blocking;
    }

    /** The hook named {@code name} ({@code chat:before_ai}, case-insensitive). */
    public static Hook fromWire(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Hook h : values()) {
            if (h.wireName.equals(n)) {
                return h;
            }
        }
        throw new IllegalArgumentException("unknown hook: " + name);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
