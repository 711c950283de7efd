package dev.baton.runtime.approval;

import dev.baton.core.turn.TurnEvent;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The expiry's part in approvals ({@link ApprovalExpiry} runs it): ends the paused turns whose held calls expired (the calls become
 * {@code expired}, denied; the turn's answer so far is stored as cancelled), and the turns claimed by an instance that
 * died which nobody took over by then ({@link AbandonedClaims}).
 */
final class ExpiredTurns {
    private static final Logger log = LoggerFactory.getLogger(ExpiredTurns.class);

    private final ApprovalStore store;
    private final ApprovalSettings settings;
    private final PausedTurnEnds ends;
    private final AbandonedClaims abandoned;
    private final Clock clock;

    ExpiredTurns(
            ApprovalStore store,
            ApprovalSettings settings,
            PausedTurnEnds ends,
            AbandonedClaims abandoned,
            Clock clock) {
        this.store = store;
        this.settings = settings;
        this.ends = ends;
        this.abandoned = abandoned;
        this.clock = clock;
    }

    /** @return how many paused turns it ended */
    int endAll() {
        Instant now = clock.instant();
        int ended = 0;
        for (PausedTurn turn : store.expired(now, settings.expiryBatch())) {
            if (expire(turn.turnId(), now)) ended++;
        }
        if (ended > 0) log.info("approval expiry ended {} paused turns", ended);
        return ended + abandoned.end(now, settings.expiryBatch());
    }

    /** Ends one paused turn whose calls expired; false when another decision or instance closed it first. */
    boolean expire(String turnId, Instant now) {
        Optional<ApprovalStore.Closed> closed =
                store.close(turnId, ApprovalStatus.EXPIRED, null, "nobody decided before it expired", now);
        if (closed.isEmpty()) return false;
        PausedTurnEnds.afterClosing(
                closed.get(),
                (turn, decisions) -> ends.inItsSession(
                        turn,
                        decisions,
                        new TurnEvent.Failed(
                                "approval_expired", "Nobody decided on the tool calls before they expired.", false)));
        return true;
    }
}
