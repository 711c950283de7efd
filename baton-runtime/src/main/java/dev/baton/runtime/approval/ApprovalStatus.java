package dev.baton.runtime.approval;

import java.util.Locale;

/** Where a held tool call stands. Every status but {@link #PENDING} is final. */
public enum ApprovalStatus {
    /** Waiting for the user's decision. */
    PENDING,
    /** The user approved it (possibly with edited arguments); it ran when its turn went on. */
    APPROVED,
    /** The user denied it; the model was told and had to explain. */
    DENIED,
    /** The user sent a new message instead of deciding, which denies it. */
    SUPERSEDED,
    /** Nobody decided before it expired. */
    EXPIRED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ApprovalStatus fromWire(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }
}
