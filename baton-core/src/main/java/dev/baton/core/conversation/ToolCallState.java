package dev.baton.core.conversation;

public enum ToolCallState {
    SUCCEEDED,
    FAILED,
    INVALID_ARGUMENTS,
    DENIED,
    TIMED_OUT,
    CANCELLED,
    /** Answered from an identical earlier call in the same turn, not executed again. */
    DEDUPLICATED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ToolCallState fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
