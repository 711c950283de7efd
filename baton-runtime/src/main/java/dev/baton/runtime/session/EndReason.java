package dev.baton.runtime.session;

/** Why a session was completed. */
public enum EndReason {
    /** Its user completed it ({@code POST /v1/sessions/{id}/complete}). */
    USER(SessionLifecycleStore.USER),
    /** The turn that used its last allowed message completed it after the answer. */
    MAX_MESSAGES(SessionLifecycleStore.MAX_MESSAGES),
    /** It outlived its {@code maxSessionDuration}. */
    MAX_SESSION_DURATION(SessionLifecycleStore.MAX_SESSION_DURATION),
    /** The background sweep found it idle for longer than its {@code inactivityTimeout}. */
    INACTIVITY(SessionLifecycleStore.INACTIVITY);

    private final String wireName;

    EndReason(String wireName) {
        this.wireName = wireName;
    }

    /** As stored in {@code sessions.end_reason}: user, max_messages, max_session_duration, inactivity. */
    public String wireName() {
        return wireName;
    }

    public static EndReason fromWire(String name) {
        for (EndReason r : values()) {
            if (r.wireName.equals(name)) return r;
        }
        throw new IllegalArgumentException("unknown end reason: " + name);
    }
}
