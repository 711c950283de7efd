package dev.baton.mcp.client;

/** Why a server's catalogue was (re)built. */
public enum Refresh {
    /** The first listing after Baton connected. */
    INITIAL,
    /** The server sent {@code notifications/tools/list_changed}. */
    LIST_CHANGED,
    /** Listing again after a restart or reconnection. */
    RECONNECT,
    /** Held-back tools checked against their pins again (an operator accepted a change, here or elsewhere). */
    PIN_RECHECK
}
