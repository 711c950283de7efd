package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.TurnFence;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where running turns are leased, so that a turn whose instance died is taken over by another and goes on from its
 * last step. {@link TurnRunner#withJournal} opens a lease for every new turn with its user message
 * ({@link #openWithUser}), so no stored message is left without a turn to answer it; the context, once built, is the
 * turn's first checkpoint, and its steps and its end are written under the lease's {@link TurnFence} (see
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
     * The new turn's stored user message and its lease.
     *
     * @param fence null when the turn is not leased
     */
    record Opened(Message user, TurnFence fence) {
        public Opened {
            Objects.requireNonNull(user, "user");
        }
    }

    /**
     * Saves the new turn's user message with {@code saveUser} and leases the turn with {@code start}, its state
     * before the context is built (no messages yet: a turn taken over in that state builds its context from the
     * stored history). A journal whose leases live in the conversation's database writes both in one transaction, so
     * a crash leaves either both or neither; this default writes the message, then the lease.
     *
     * @throws RuntimeException what {@code saveUser} threw (nothing is stored then)
     */
    default Opened openWithUser(TurnRequest request, TurnState start, Supplier<Message> saveUser) {
        Message user = saveUser.get();
        return new Opened(user, open(request, start));
    }

    /**
     * Leases the new turn to this instance with {@code start}, its state before the first model call.
     *
     * @return the lease's fence; null when the turn is not leased (it then runs unfenced, as without a journal)
     */
    TurnFence open(TurnRequest request, TurnState start);

    /** Ends the lease of a turn that ended without storing its answer; nothing when the fence no longer holds. */
    void close(TurnFence fence);
}
