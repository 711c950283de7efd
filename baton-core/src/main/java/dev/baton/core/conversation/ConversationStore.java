package dev.baton.core.conversation;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Persistence of sessions, messages, tool calls and usage. Every read takes the caller's user id and
 * finds nothing that belongs to someone else.
 */
public interface ConversationStore {

    void createSession(Session session);

    Optional<Session> findSession(String userId, String sessionId);

    SessionPage listSessions(String userId, SessionQuery query);

    /**
     * Appends a user message (committed before the model is called), assigning its {@code seq}, bumping the
     * session's message count and last activity.
     *
     * @return the message as stored, with its seq
     */
    default Message appendUserMessage(Message message) {
        return appendUserMessage(message, List.of(), List.of());
    }

    /**
     * Appends a user message like {@link #appendUserMessage(Message)}, with the audit records and extractions the
     * before_ai hooks produced for it (the original of a redacted or blocked message), in the same transaction.
     *
     * @return the message as stored, with its seq
     */
    Message appendUserMessage(Message message, List<AuditRecord> audit, List<ExtractionRecord> extractions);

    /**
     * Appends a user message like {@link #appendUserMessage(Message, List, List)} unless its session has a turn paused
     * for the user's approval of tool calls: then nothing is written and {@link PausedTurnPendingException} is thrown,
     * and the caller ends that turn before it appends the message again. The check is part of the append, so a turn
     * need not look for a paused turn first, which is almost never there.
     *
     * <p>Only a store that keeps the paused turns itself can check (the JDBC store, with the approval store on the
     * same database); the runtime asks for this append only then.
     *
     * @throws UnsupportedOperationException when this store does not see paused turns (the default)
     */
    default Message appendUserMessageUnlessPaused(
            Message message, List<AuditRecord> audit, List<ExtractionRecord> extractions) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not see paused turns");
    }

    /**
     * The newest {@code limit} messages of a session, returned oldest first. A bounded query: its cost does
     * not grow with the length of the conversation.
     */
    List<Message> recentMessages(String userId, String sessionId, int limit);

    /** Messages older than {@code beforeSeq} (all when null), newest {@code limit} of them, oldest first. */
    List<Message> listMessages(String userId, String sessionId, Long beforeSeq, int limit);

    /** Tool calls of the given assistant messages, for history display. */
    List<ToolCallRecord> toolCallsOf(String userId, String sessionId, List<String> messageIds);

    /**
     * The tool calls of the user's session with these row ids (e.g. held calls, whose rows get their approval's id):
     * whether they ran, with what outcome, and whether their turn's answer was stored (linked to a message).
     */
    List<ToolCallRecord> toolCallsWithIds(String userId, String sessionId, List<String> ids);

    /**
     * Writes tool calls of a turn that is still running, as soon as they have finished, so that they are in the
     * audit trail even if the turn never ends (the process dies). The rows belong to no message yet ({@code messageId}
     * must be null), so history display does not show them, and they count towards the session's tool-call count
     * only once {@link #completeTurn} links them. All of them are written or none.
     *
     * @throws java.util.NoSuchElementException if a call's session is not the user's
     * @throws IllegalArgumentException if a call already names a message
     */
    void recordToolCalls(String userId, List<ToolCallRecord> calls);

    /**
     * Writes one step of a leased running turn: its finished tool calls (as {@link #recordToolCalls}) and its
     * checkpoint ({@code state}, {@code TurnStateCodec} JSON) in one transaction, only while {@code fence} holds. A
     * store without leases (one process, nothing to take a turn over) writes the tool calls only.
     *
     * @param calls the step's tool calls; empty after a model call
     * @throws TurnFencedException when another instance took the turn over: nothing was written
     */
    default void recordStep(String userId, List<ToolCallRecord> calls, TurnFence fence, String state) {
        recordToolCalls(userId, calls);
    }

    /**
     * Runs a transactional tool's work and writes the step it makes, in one transaction under {@code fence}: what the
     * work writes to this store's database on this thread joins the transaction, so the tool's effect and its record
     * (the step's tool call and, in a leased turn, the turn's checkpoint) commit together, or neither does. The fence
     * is checked in the same transaction: a turn another instance took over writes nothing, the tool's writes
     * included. Without a fence (a turn that is not leased) the tool's effect and its call's row still commit
     * together. A store without transactions runs the work, then writes its step as {@link #recordStep}.
     *
     * @param fence the turn's lease; null for a turn that is not leased (the step's {@code state} is then null)
     * @param work runs the tool and returns the step to write; null when nothing is to be kept (the tool failed, or
     *     its outcome came too late), which rolls back what it wrote
     * @throws TurnFencedException when another instance took the turn over: nothing was written
     */
    default void recordStepWith(String userId, TurnFence fence, Supplier<StepRecord> work) {
        StepRecord step = work.get();
        if (step != null) recordStep(userId, step.calls(), fence, step.state());
    }

    /**
     * Writes a turn's assistant message, its tool calls, usage, audit and extraction rows atomically, and bumps the
     * session's message and tool-call counts (by every tool call of the turn). A tool call whose id
     * {@link #recordToolCalls} wrote is linked to the assistant message rather than written again.
     *
     * <p>A record with a {@link TurnRecord#fence()} is stored only while the fence holds, and ends the turn's lease in
     * the same transaction.
     *
     * @return the assistant message as stored, with its seq
     * @throws java.util.NoSuchElementException if the session is not the user's
     * @throws TurnFencedException when another instance took the turn over: nothing was written
     */
    Message completeTurn(String userId, TurnRecord turn);

    /**
     * Writes the usage rows of model calls whose turn could not be saved (the database was unavailable when the turn
     * ended), later, once it is back: what a model call cost is never dropped. A row whose id is already stored is
     * skipped, so writing the same rows again (after a write whose outcome was unknown) adds nothing. The rows'
     * message may not exist.
     */
    void recordUsage(List<UsageRecord> usage);

    /** Marks an active session completed. Returns the updated session, empty if not found or not the user's. */
    Optional<Session> completeSession(String userId, String sessionId, Instant endedAt);

    /**
     * Deletes a session and everything in it except its audit records and usage rows, which outlive the
     * conversation. Returns false if not found or not the user's.
     */
    boolean deleteSession(String userId, String sessionId);
}
