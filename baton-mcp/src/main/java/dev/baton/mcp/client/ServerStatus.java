package dev.baton.mcp.client;

import java.time.Instant;
import java.util.Objects;

/**
 * How one configured MCP server is doing, for {@code /readyz} and the logs.
 *
 * @param wire {@code stdio}, {@code streamable-http}, {@code sse} or {@code streamable-http 2026-07-28} (the last one
 *     that connected); null before any did
 * @param since when the server entered its state
 * @param lastError why it is (or last was) down; null when it never failed
 * @param pid the process of a stdio server while it runs, else -1
 * @param restarts how many times it was restarted or reconnected after being up or failing
 * @param tools how many of its tools are offered
 * @param heldBack how many it lists that are not offered (changed since pinned)
 * @param catalogueVersion grows with every rebuild of its catalogue
 * @param lastRefresh why the catalogue was last rebuilt
 * @param userProcesses for a command server whose state is per user, how many users' processes run now; else -1
 */
public record ServerStatus(
        String name,
        State state,
        String wire,
        Instant since,
        String lastError,
        long pid,
        int restarts,
        int tools,
        int heldBack,
        long catalogueVersion,
        Refresh lastRefresh,
        int userProcesses) {

    public enum State {
        /** Starting or restarting; not up yet. */
        CONNECTING,
        UP,
        /** Failed; a new attempt follows after a backoff. Calls fail fast meanwhile. */
        DOWN,
        /** Closed with Baton. */
        STOPPED
    }

    public ServerStatus {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(since, "since");
    }

    public boolean up() {
        return state == State.UP;
    }

    /** A server configured and not connected yet. */
    static ServerStatus connecting(String name, Instant since) {
        return new ServerStatus(name, State.CONNECTING, null, since, null, -1, 0, 0, 0, 0, Refresh.INITIAL, -1);
    }

    /**
     * This status entering {@code next} at {@code at}; {@code wire} and {@code pid} are the session's now up, or null
     * and -1 without one (the last wire is kept).
     */
    ServerStatus entering(State next, Instant at, String lastError, String currentWire, long currentPid) {
        return new ServerStatus(
                name,
                next,
                currentWire == null ? wire : currentWire,
                at,
                lastError,
                currentPid,
                restarts,
                tools,
                heldBack,
                catalogueVersion,
                lastRefresh,
                userProcesses);
    }

    /** This status with one more restart or reconnection. */
    ServerStatus restarted() {
        return new ServerStatus(
                name,
                state,
                wire,
                since,
                lastError,
                pid,
                restarts + 1,
                tools,
                heldBack,
                catalogueVersion,
                lastRefresh,
                userProcesses);
    }

    /** This status after the catalogue was rebuilt. */
    ServerStatus withCatalogue(int offered, int held, long version, Refresh cause) {
        return new ServerStatus(
                name, state, wire, since, lastError, pid, restarts, offered, held, version, cause, userProcesses);
    }

    /** This status with the number of users' processes running now. */
    ServerStatus withUserProcesses(int running) {
        return new ServerStatus(
                name,
                state,
                wire,
                since,
                lastError,
                pid,
                restarts,
                tools,
                heldBack,
                catalogueVersion,
                lastRefresh,
                running);
    }
}
