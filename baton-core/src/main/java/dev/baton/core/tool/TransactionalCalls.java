package dev.baton.core.tool;

import dev.baton.core.model.ToolCallRequest;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Where the calls of {@link ToolDefinition#transactional() transactional} tools commit: the tool runs inside a
 * database transaction that also writes the record of its call (and, in a durable turn, the turn's checkpoint under
 * its fence), so the tool's writes and their record commit together or not at all. The turn that makes the calls
 * provides it through {@link ToolCallScope#transactions()}; {@link #NONE} runs the tool as any other.
 */
@FunctionalInterface
public interface TransactionalCalls {

    /** No transaction: the tool runs as any other (no durable turn, or a store without transactions). */
    TransactionalCalls NONE = (call, canonicalArguments, run, stillWanted) -> run.get();

    /**
     * Runs {@code run} on this thread inside a transaction that commits its writes with the call's record when its
     * outcome is a success; a failure rolls back whatever the tool wrote (the failure is then recorded as any call's).
     *
     * @param canonicalArguments the call's arguments in canonical form, for the turn's call cache
     * @param run the tool's work, returning its outcome; it never throws
     * @param stillWanted asked once, just before the commit: false when the call timed out or was cancelled while it
     *     ran, and everything rolls back; true makes the outcome the call's, whatever happens to the turn's wait
     * @return the call's outcome: {@code run}'s, or a failure when its writes could not be committed (they are then
     *     absent)
     */
    ToolCallOutcome commit(
            ToolCallRequest call,
            String canonicalArguments,
            Supplier<ToolCallOutcome> run,
            BooleanSupplier stillWanted);
}
