package dev.baton.core.turn;

import dev.baton.core.conversation.TurnFence;

/**
 * Where running turns are leased, so that a turn whose instance died is taken over by another and goes on from its
 * last step. {@link TurnRunner#withJournal} opens a lease for every new turn once its context is built; the turn's
 * steps and its end are then written under the lease's {@link TurnFence} (see
 * {@link dev.baton.core.conversation.ConversationStore#recordStep}), and its answer ends the lease. A turn that ends
 * any other way (paused for approval, its end not stored) {@link #close closes} it.
 */
public interface TurnJournal {

    /** No leases: turns are not taken over (one process, or durable turns switched off). */
    TurnJournal NONE = new TurnJournal() {
        @Override
        public TurnFence open(TurnRequest request, TurnState start) {
            return null;
        }

        @Override
        public void close(TurnFence fence) {}
    };

    /**
     * Leases the new turn to this instance with its state before the first model call.
     *
     * @return the lease's fence; null when the turn is not leased (it then runs unfenced, as without a journal)
     */
    TurnFence open(TurnRequest request, TurnState start);

    /** Ends the lease of a turn that ended without storing its answer; nothing when the fence no longer holds. */
    void close(TurnFence fence);
}
