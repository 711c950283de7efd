package dev.baton.core.conversation;

/** Whether a stored message is whole. Anything but COMPLETE is kept so the conversation stays consistent. */
public enum MessageStatus {
    /** A finished message. */
    COMPLETE,
    /** Assistant text cut short by a cancel or client disconnect. */
    CANCELLED,
    /** Assistant text cut short by a model or tool failure. */
    INCOMPLETE,
    /** A user message a hook blocked; the content reads "[blocked]". */
    BLOCKED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static MessageStatus fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
