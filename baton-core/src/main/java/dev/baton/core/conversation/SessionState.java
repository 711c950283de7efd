package dev.baton.core.conversation;

public enum SessionState {
    ACTIVE,
    COMPLETED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static SessionState fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
