package dev.baton.core.turn;

import dev.baton.core.context.ContextBuilder;
import dev.baton.core.context.PromptSections;
import dev.baton.core.context.RecentHistory;
import dev.baton.core.context.RecentWindows;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.PausedTurnPendingException;
import dev.baton.core.hook.BeforeAiOutcome;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.id.Ids;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one turn (DESIGN §4): saves the user message, builds the context, then asks the model and runs the tools it
 * calls until it answers or a limit is reached, and saves the answer with its tool calls and usage. Every way a turn
 * can end is reported as exactly one terminal event — {@link TurnEvent.Done} or {@link TurnEvent.Failed} — and
 * leaves the conversation consistent: a failed or cancelled turn keeps its partial answer with that status.
 *
 * <p>The loop's state between steps is plain data, a {@link TurnState}, reported after every model call and every
 * step of tool calls to the listener of {@link #withCheckpoints}. Each step's tool calls are written as soon as they
 * have finished ({@link ConversationStore#recordToolCalls}), so a turn that never ends still leaves them in the
 * audit trail; the end of the turn links them to the answer.
 *
 * <p>Human approval ({@link #withApprovals}): a call the {@link ToolApprovals} hold is not run; the reply's other
 * calls run, the state is stored through {@link ToolApprovals#pause}, and the turn ends with
 * {@link TurnEvent.AwaitingApproval}. A request carrying a {@link TurnResume} goes on from that state — on any
 * instance: the output filters are restored ({@link OutputFilterChain#restore}), the decided calls run or are refused,
 * and the loop continues where it stopped (no hooks run again before the model; after_ai runs at the end).
 * {@link #closePaused} ends a paused turn without the model.
 *
 * <p>This class starts a turn (the history, the hooks before the model, the user message);
 * {@link TurnContextStep} builds its context, {@link TurnSteps} runs its model and tool calls, {@link TurnEnding} saves how it ended, and {@link TurnResumption}
 * goes on from a pause.
 *
 * <p>Blocking: call it on a virtual thread. The sink is called only from the calling thread, in order.
 */
public final class TurnRunner {
    private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);
    /** How often usage that could not be written with its turn is tried again. */
    private static final Duration USAGE_RETRY = Duration.ofSeconds(1);

    private final ConversationStore store;
    private final ModelResolver models;
    private final ToolCatalog tools;
    private final TokenCounter tokens;
    private final CostCalculator costs;
    private final Clock clock;
    private final ModulePipeline modules;
    private final ContextBuilder contexts;
    private final TurnRecorder recorder;
    private final Function<TurnRequest, PromptSections> sections;
    private final Consumer<TurnCheckpoint> checkpoints;
    private final ToolApprovals approvals;
    private final TurnPauses pauses;
    private final PendingUsage pendingUsage;
    private final TurnJournal journal;
    private final TurnEnding ending;
    private final TurnSteps steps;
    private final TurnResumption resumption;
    private final TurnContextStep contextStep;

    public TurnRunner(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            TokenCounter tokens,
            CostCalculator costs,
            Clock clock,
            ModulePipeline modules) {
        this(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                request -> PromptSections.NONE,
                TurnSteps.NO_CHECKPOINTS,
                ToolApprovals.NONE,
                new PendingUsage(store, USAGE_RETRY),
                TurnJournal.NONE);
    }

    private TurnRunner(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            TokenCounter tokens,
            CostCalculator costs,
            Clock clock,
            ModulePipeline modules,
            Function<TurnRequest, PromptSections> sections,
            Consumer<TurnCheckpoint> checkpoints,
            ToolApprovals approvals,
            PendingUsage pendingUsage,
            TurnJournal journal) {
        this.store = Objects.requireNonNull(store, "store");
        this.models = Objects.requireNonNull(models, "models");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.modules = Objects.requireNonNull(modules, "modules");
        this.sections = Objects.requireNonNull(sections, "sections");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.approvals = Objects.requireNonNull(approvals, "approvals");
        this.pendingUsage = Objects.requireNonNull(pendingUsage, "pendingUsage");
        this.journal = Objects.requireNonNull(journal, "journal");
        RecentWindows windows = new RecentWindows();
        this.contexts = new ContextBuilder(store, tokens, clock, windows);
        ToolDispatcher dispatcher = new ToolDispatcher(new ToolExecutor(tools, clock), tools, approvals, clock);
        this.recorder = new TurnRecorder(store, clock, windows);
        this.pauses = new TurnPauses(approvals, recorder, modules, clock, journal);
        this.ending = new TurnEnding(recorder, modules, pendingUsage, journal);
        this.steps = new TurnSteps(new CallPricing(costs, clock), dispatcher, recorder, pauses, ending, checkpoints);
        this.resumption = new TurnResumption(
                store, contexts, modules, models, tools, approvals, dispatcher, recorder, steps, pauses, ending, clock);
        this.contextStep =
                new TurnContextStep(store, models, tools, modules, contexts, recorder, sections, steps, ending, clock);
    }

    /**
     * A runner that adds assignment context and constraints (resolved by the caller, e.g. from the session's
     * assignment) to the system prompt of every turn.
     */
    public TurnRunner withPromptSections(Function<TurnRequest, PromptSections> sectionsForTurn) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sectionsForTurn,
                checkpoints,
                approvals,
                pendingUsage,
                journal);
    }

    /**
     * A runner that reports every turn's {@link TurnState} after each model call and after each step of tool calls
     * (once that step's tool calls are written). The listener runs on the turn's thread, before the turn goes on:
     * keep it short. If it throws, the failure is logged and the turn goes on.
     */
    public TurnRunner withCheckpoints(Consumer<TurnCheckpoint> listener) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sections,
                listener,
                approvals,
                pendingUsage,
                journal);
    }

    /**
     * A runner whose tool calls wait for the user's approval when {@code gate} holds them, and which can go on with a
     * paused turn (a request with a {@link TurnResume}).
     */
    public TurnRunner withApprovals(ToolApprovals gate) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sections,
                checkpoints,
                gate,
                pendingUsage,
                journal);
    }

    /**
     * Ends the paused turn of {@code request.resume()} without asking the model again: the held calls are stored as
     * refused by their decisions, and the answer so far with {@code status}, with the turn's tool calls and usage. No
     * events are sent; the outcome's terminal is {@code reason} and it has no user message.
     */
    public TurnOutcome closePaused(TurnRequest request, MessageStatus status, TurnEvent.Failed reason) {
        if (request.resume() == null) {
            throw new IllegalArgumentException("not a paused turn");
        }
        return pauses.close(request, status, reason);
    }

    /** A runner whose usage kept while the store was unavailable is retried every {@code every} (tests). */
    TurnRunner withUsageRetry(Duration every) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sections,
                checkpoints,
                approvals,
                new PendingUsage(store, every),
                journal);
    }

    /**
     * A runner that leases every new turn in {@code turns} with its user message (in one transaction when the journal
     * and the store share a database), writes its context as its first checkpoint, and writes each step (its tool
     * calls and the state after it) and the answer under the lease's fence: a turn whose instance dies is taken over
     * by another and goes on from its last step ({@link TurnResume#fence}), and the instance that lost it cannot write
     * again ({@link TurnEvent.Failed} {@code turn_taken_over}, nothing stored).
     */
    public TurnRunner withJournal(TurnJournal turns) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sections,
                checkpoints,
                approvals,
                pendingUsage,
                turns);
    }

    /**
     * How many usage rows of finished model calls wait to be written: their turn ended while the store was
     * unavailable, and they are written as soon as it is back (see {@link ConversationStore#recordUsage}).
     */
    public int pendingUsageRows() {
        return pendingUsage.size();
    }

    /** Runs the turn to its end and returns how it ended; the same end is the last event the sink receives. */
    public TurnOutcome run(TurnRequest request, Consumer<TurnEvent> eventSink) {
        Consumer<TurnEvent> sink = new GuardedSink(eventSink, request);
        if (request.resume() != null) {
            TurnResume resume = request.resume();
            // taken over before its context was stored: built now, from the stored user message
            if (resume.fence() != null && resume.state().messages().isEmpty()) {
                return contextStep.takenOverBeforeContext(request, sink);
            }
            return resumption.resume(request, sink);
        }
        long startedNanos = System.nanoTime();
        Instant startedAt = clock.instant();
        String turnId = Ids.newId();
        sink.accept(new TurnEvent.Started(turnId, request.session().id(), request.requestId()));

        // the user message's id is fixed before the hooks run, so on_message extractions can point at it
        String userMessageId = Ids.newId();
        RecentHistory history;
        BeforeAiOutcome.Proceed proceed;
        HookContext hookContext;
        try {
            history = contexts.recentHistory(
                    request.principal().userId(),
                    request.session(),
                    request.agent().limits());
            hookContext = TurnHookContexts.of(request, history.messages(), clock.instant());
            modules.onMessage(hookContext, userMessageId);
            switch (modules.beforeAi(hookContext)) {
                case BeforeAiOutcome.Blocked blocked -> {
                    return TurnEnding.end(
                            sink, BlockedTurn.record(recorder, request, userMessageId, blocked, startedNanos, sink));
                }
                case BeforeAiOutcome.Proceed p -> proceed = p;
            }
        } catch (StoreUnavailableException e) {
            log.warn("request {}: could not prepare the turn: {}", request.requestId(), e.getMessage());
            return TurnEnding.end(sink, notStarted(TurnFailures.databaseUnavailable(e)));
        } catch (RuntimeException e) {
            log.error("request {}: could not prepare the turn", request.requestId(), e);
            return TurnEnding.end(sink, notStarted(TurnFailures.internal()));
        }

        HookContext turnContext = hookContext.withCurrentMessage(proceed.userMessage());
        TurnProgress progress = TurnProgress.start(
                turnId,
                request.session().id(),
                userMessageId,
                request.agent().limits().requestTimeout(),
                startedNanos,
                startedAt);
        Message user;
        try {
            TurnJournal.Opened opened;
            try {
                opened = openWithUser(request, progress, proceed, userMessageId);
            } catch (PausedTurnPendingException paused) {
                // the session's turn waiting for approval is superseded by this message, which is then stored; the
                // history the hooks saw lacks that turn's answer, so the model's is read again below
                request = recorder.supersedePaused(request);
                opened = openWithUser(request, progress, proceed, userMessageId);
            }
            user = opened.user();
            progress.fence = opened.fence();
        } catch (StoreUnavailableException e) {
            log.warn("request {}: could not save the user message: {}", request.requestId(), e.getMessage());
            return TurnEnding.end(sink, notStarted(TurnFailures.databaseUnavailable(e)));
        } catch (RuntimeException e) {
            log.error("request {}: could not save the user message", request.requestId(), e);
            return TurnEnding.end(sink, notStarted(TurnFailures.internal()));
        }
        List<Message> recent = history.messages();
        if (!history.precedes(user)) {
            // a message was stored between the history found and this user message (the session's count was read
            // before the turn held it): the history the hooks saw is out of date, the model's is read again
            try {
                recent = contexts.historyBefore(user, request.agent().limits());
                turnContext =
                        TurnHookContexts.of(request, recent, clock.instant()).withCurrentMessage(proceed.userMessage());
            } catch (RuntimeException e) {
                return ending.failed(e, request, user, progress, null, sink);
            }
        }
        return contextStep.run(request, user, recent, turnContext, proceed.guidance(), progress, startedNanos, sink);
    }

    /** Stores the user message and leases the turn with it: no stored message is left without a turn to answer it. */
    private TurnJournal.Opened openWithUser(
            TurnRequest request, TurnProgress progress, BeforeAiOutcome.Proceed proceed, String userMessageId) {
        return journal.openWithUser(
                request,
                progress.snapshot(OutputFilterChain.State.EMPTY),
                () -> recorder.saveUser(
                        request,
                        userMessageId,
                        proceed.userMessage(),
                        MessageStatus.COMPLETE,
                        proceed.audit(),
                        proceed.extractions()));
    }

    /** A turn that ended before its user message was saved: nothing of it is stored. */
    private static TurnOutcome notStarted(TurnEvent.Failed failure) {
        return new TurnOutcome(null, null, List.of(), TurnEnding.zeroUsage(), null, failure);
    }
}
