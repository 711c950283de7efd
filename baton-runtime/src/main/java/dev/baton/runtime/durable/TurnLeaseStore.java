package dev.baton.runtime.durable;

import dev.baton.core.conversation.TurnFence;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The leases of running turns (DESIGN: durable turns). The turn's steps write their state through the conversation
 * store under the lease's fence ({@code ConversationStore.recordStep}), in the same table, and its answer ends the
 * lease; this port opens, renews, ends and takes over leases. Baton-store-jdbc implements it on SQLite and PostgreSQL.
 */
public interface TurnLeaseStore {

    /** Leases a new turn ({@code turn.epoch()} is 1). */
    void open(LeasedTurn turn);

    /**
     * Runs {@code first} (the turn's user message being saved), then leases the turn as {@link #open}: in one
     * transaction when the store's writes and {@code first}'s share a database (the JDBC store's), so either both are
     * kept or neither; this default runs them one after the other. {@code first} may run on another thread than the
     * caller's (the JDBC store shares the transaction with other turns' writes on SQLite): it must only write to the
     * store, without relying on the calling thread.
     *
     * @return what {@code first} returned
     */
    default <T> T openAfter(Supplier<T> first, LeasedTurn turn) {
        T result = first.get();
        open(turn);
        return result;
    }

    /**
     * Extends the leases {@code owner} still holds among {@code held} to {@code until}, in one write.
     *
     * @return the ones it still holds (the others ended with their turn's answer, or were taken over)
     */
    Set<TurnFence> renew(InstanceIdentity owner, Collection<TurnFence> held, Instant until);

    /** Ends the lease if it still holds; false when another instance took the turn over (or it ended). */
    boolean close(TurnFence fence);

    /**
     * Ends the leases of the instance's earlier boots at {@code now}: they died with their boot, and the sweep takes
     * them over at once.
     *
     * @return how many
     */
    int expireEarlierBoots(InstanceIdentity current, Instant now);

    /** The running turn started by the request that claimed this idempotency key, if it is still running. */
    Optional<LeasedTurn> byIdempotencyKey(String owner, String key);

    /** The session's leased turn (running, or orphaned), the oldest if several. */
    Optional<LeasedTurn> inSession(String sessionId);

    /** Turns whose lease ran out by {@code now}, longest orphaned first. */
    List<LeasedTurn> orphaned(Instant now, int limit);

    /**
     * Takes the orphaned {@code turn} over for {@code by} until {@code until}, if its row still has the turn's epoch
     * and its lease ran out by {@code now}: the row gets the next epoch (a compare-and-set, so one instance wins).
     *
     * @return the turn under its new lease; empty when another instance was first, or the turn ended
     */
    Optional<LeasedTurn> takeOver(LeasedTurn turn, InstanceIdentity by, Instant now, Instant until);
}
