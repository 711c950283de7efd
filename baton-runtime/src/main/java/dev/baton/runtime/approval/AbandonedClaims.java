package dev.baton.runtime.approval;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnResume;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sweep's part in claims whose instance died: a turn nobody took over by a retried decision before its calls'
 * expiry is taken over by the sweep and ended without the model — what the dead instance ran keeps its recorded
 * outcome, a call whose run had started without a record is stored as of unknown outcome, an approved call that never
 * started is stored as not run, and the answer so far as cancelled. The sweep holds no user's permissions, so it runs
 * nothing. Until the expiry the user's retried decision may still go on with the turn.
 */
final class AbandonedClaims {
    private static final Logger log = LoggerFactory.getLogger(AbandonedClaims.class);

    private final ApprovalStore store;
    private final ConversationStore conversations;
    private final PausedTurnEnds ends;

    AbandonedClaims(ApprovalStore store, ConversationStore conversations, PausedTurnEnds ends) {
        this.store = store;
        this.conversations = conversations;
        this.ends = ends;
    }

    /** @return how many abandoned turns it ended */
    int end(Instant now, int limit) {
        int ended = 0;
        for (PausedTurn turn : store.abandoned(now, limit)) {
            Optional<ApprovalStore.Resumable> taken =
                    store.reclaim(turn.turnId(), now, now.plus(ApprovalStore.DEFAULT_CLAIM));
            if (taken.isEmpty()) continue; // a retried decision or another instance's sweep was first
            try {
                Optional<List<TurnResume.ToolDecision>> decisions =
                        TakeoverDecisions.of(taken.get(), conversations, now);
                if (decisions.isPresent()) close(taken.get().turn(), decisions.get());
                ended++;
            } catch (RuntimeException e) {
                log.error("could not end abandoned turn {}", turn.turnId(), e);
            } finally {
                store.finish(turn.turnId(), taken.get().turn().claimId());
            }
        }
        if (ended > 0) log.info("approval sweep ended {} turns whose instance died going on with them", ended);
        return ended;
    }

    private void close(PausedTurn turn, List<TurnResume.ToolDecision> decisions) {
        ends.inItsSession(
                turn,
                decisions,
                new TurnEvent.Failed(
                        "approval_abandoned",
                        "The server going on with this turn stopped, and nobody retried the decision in time.",
                        false));
    }
}
