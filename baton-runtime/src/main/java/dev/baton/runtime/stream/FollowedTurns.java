package dev.baton.runtime.stream;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.Sessions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Who may read a turn's kept events (DESIGN §14): its own user, with {@link Sessions#READ}, or anyone of the same
 * tenant with {@link #OBSERVE} (a second client following a turn); and only under the session it ran in. Every other
 * turn — unknown, forgotten, another session's, another user's — is {@link Refusal.NotFound}, so a caller learns
 * nothing of turns that are not theirs to see.
 */
public final class FollowedTurns {
    /** Follow any turn of the caller's tenant. */
    public static final String OBSERVE = "sessions:observe";

    private final TurnEventLog log;

    public FollowedTurns(TurnEventLog log) {
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * The caller's way into turn {@code turnId} of session {@code sessionId}.
     *
     * @throws RefusalException {@link Refusal.NotFound} when the log does not know the turn under that session, or the
     *     caller may not follow it
     */
    public Followed follow(Principal caller, String sessionId, String turnId) {
        log.owner(turnId)
                .filter(owner -> owner.sessionId().equals(sessionId) && mayFollow(caller, owner))
                .orElseThrow(() -> RefusalException.notFound("turn"));
        return new Followed(turnId, sessionId);
    }

    /**
     * The caller's way into turn {@code turnId}, whichever session it ran in (for a front door whose clients name a
     * turn alone, as A2A's task ids do).
     *
     * @throws RefusalException {@link Refusal.NotFound} when the log does not know the turn or the caller may not
     *     follow it
     */
    public Followed follow(Principal caller, String turnId) {
        TurnEventLog.TurnOwner owner = log.owner(turnId)
                .filter(o -> mayFollow(caller, o))
                .orElseThrow(() -> RefusalException.notFound("turn"));
        return new Followed(turnId, owner.sessionId());
    }

    private static boolean mayFollow(Principal caller, TurnEventLog.TurnOwner owner) {
        if (!owner.tenantId().equals(caller.tenantId())) return false;
        if (caller.hasPermission(OBSERVE)) return true;
        return owner.userId().equals(caller.userId()) && caller.hasPermission(Sessions.READ);
    }

    /** A turn the caller may follow. */
    public final class Followed {
        private final String turnId;
        private final String sessionId;

        private Followed(String turnId, String sessionId) {
            this.turnId = turnId;
            this.sessionId = sessionId;
        }

        /** The session the turn runs in. */
        public String sessionId() {
            return sessionId;
        }

        /** Opens a reader of the turn's events (a blocking read may hold a connection of its own: close it). */
        public TurnEventLog.Reader reader() {
            return log.reader(turnId);
        }

        /**
         * Whether a client that has seen the turn's events up to {@code lastSeenId} has seen it end: nothing is kept
         * after that id, and the turn's last kept event, at or before it, is its {@code done} or {@code error}. Such a
         * client will get nothing more (a browser's EventSource reconnecting after {@code done} sends that id).
         */
        public boolean seenToItsEnd(long lastSeenId) {
            if (lastSeenId <= 0) return false;
            try (TurnEventLog.Reader reader = log.reader(turnId)) {
                if (!reader.read(lastSeenId, Duration.ZERO).isEmpty()) return false;
                List<TurnEventLog.LoggedEvent> kept = reader.read(0, Duration.ZERO);
                if (kept.isEmpty()) return false;
                TurnEventLog.LoggedEvent last = kept.getLast();
                return last.id() <= lastSeenId && last.event().isTerminal();
            } catch (IllegalArgumentException unreadable) {
                // an earlier version's encoding: follow as before
                return false;
            }
        }

        /** Whether the log has forgotten the turn (a turn whose instance died never ends: stop following then). */
        public boolean forgotten() {
            return log.owner(turnId).isEmpty();
        }
    }
}
