package dev.baton.core.conversation;

public enum MessageRole {
    USER,
    ASSISTANT;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static MessageRole fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
