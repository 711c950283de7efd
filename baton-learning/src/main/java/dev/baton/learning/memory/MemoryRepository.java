package dev.baton.learning.memory;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where the learning agent's memory is kept; every method but the purge is scoped to one learner. */
public interface MemoryRepository {

    Optional<AgentState> state(Learner learner);

    /** Stores the learner's state (inserted or replaced). */
    void saveState(AgentState state);

    /** Stores a decision and the state it leads to, in one transaction. */
    void remember(DecisionPoint decision, AgentState state);

    /** The learner's latest decisions, newest first, at most {@code limit}. */
    List<DecisionPoint> decisions(Learner learner, int limit);

    /**
     * Forgets the learner: state and decisions, and records who did it in the memory audit, in one transaction.
     *
     * @return how many decisions were forgotten
     */
    int forget(Learner learner, String actorId, Instant at);

    /**
     * Deletes at most {@code limit} decisions and states last changed before {@code cutoff}, oldest first.
     *
     * @return how many rows went
     */
    int purge(Instant cutoff, int limit);
}
