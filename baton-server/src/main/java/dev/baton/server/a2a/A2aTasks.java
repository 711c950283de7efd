package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.approval.ApprovalDecision;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventRecorder;
import dev.baton.server.a2a.A2aWire.State;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A2A's task operations over the runtime: a message runs one turn through {@link Conversations#chat} (a new context
 * starts a session of the endpoint's agent, a known one continues it), the answer to a task that waits for approval
 * decides its held calls through {@link Approvals#decide}, a task is read back from the turn's kept events
 * ({@link FollowedTurns}) and cancelled through {@link Sessions#cancel}. Every rule is the runtime's: a session or turn
 * that is not the caller's is "not found" exactly as one that does not exist.
 */
final class A2aTasks {
    private static final Logger log = LoggerFactory.getLogger(A2aTasks.class);
    /** How long a cancel waits for the cancelled turn to say it ended. */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

    private final Conversations conversations;
    private final Sessions sessions;
    private final Approvals approvals;
    private final TurnEventLog events;
    private final FollowedTurns following;
    private final Clock clock;

    A2aTasks(
            Conversations conversations,
            Sessions sessions,
            Approvals approvals,
            TurnEventLog events,
            FollowedTurns following,
            Clock clock) {
        this.conversations = conversations;
        this.sessions = sessions;
        this.approvals = approvals;
        this.events = events;
        this.following = following;
        this.clock = clock;
    }

    TaskProgress newProgress() {
        return new TaskProgress(clock);
    }

    /**
     * Runs the turn {@code message} asks for and feeds its events to {@code progress} (and {@code listener}, which
     * also hears the turn being admitted): a new turn in the message's context (a new session of {@code agentId}
     * without one), or, for a message naming a task that waits for approval, that task going on with the answer.
     */
    void send(
            Principal caller,
            String agentId,
            IncomingMessage message,
            SendOptions options,
            TaskProgress progress,
            TurnListener listener) {
        TurnEventRecorder recorder = new TurnEventRecorder(events, caller);
        TurnListener fed = new TurnListener() {
            @Override
            public void admitted(AdmittedTurn turn) {
                listener.admitted(turn);
            }

            @Override
            public void onEvent(TurnEvent event) {
                recorder.record(event);
                listener.onEvent(event);
            }
        };
        if (message.taskId() != null) {
            answer(caller, agentId, message, options, progress, fed);
            return;
        }
        if (message.text().isBlank()) throw A2aError.invalidParams("the message has no text");
        if (message.contextId() != null) ownContext(caller, agentId, message.contextId());
        var target = new Conversations.ChatTarget(message.contextId(), message.contextId() == null ? agentId : null);
        conversations.chat(caller, target, message.text(), options, fed);
    }

    /**
     * Starts the turn {@code message} asks for and answers as soon as it runs, with the task as it started (working):
     * the turn goes on without the request, its events kept like any turn's, for {@code GetTask},
     * {@code SubscribeToTask} and {@code CancelTask}. A refusal before the turn runs is thrown here as by {@link #send}.
     */
    ObjectNode start(Principal caller, String agentId, IncomingMessage message, SendOptions options) {
        CompletableFuture<ObjectNode> started = new CompletableFuture<>();
        TaskProgress progress = newProgress();
        TurnListener listener = event -> {
            progress.apply(event);
            if (event instanceof TurnEvent.Started) started.complete(progress.task());
        };
        Thread.ofVirtual().name("a2a-task").start(() -> {
            try {
                send(caller, agentId, message, options, progress, listener);
            } catch (RuntimeException | Error e) {
                if (!started.completeExceptionally(e))
                    log.warn(
                            "request {}: a task that was answered at its start failed: {}",
                            options.requestId(),
                            e.toString());
            }
        });
        try {
            return started.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new A2aError(A2aError.INTERNAL_ERROR, "interrupted while the task started", "interrupted");
        }
    }

    /** The message answers the task's held calls: each is decided; the last decision goes on with the turn. */
    private void answer(
            Principal caller,
            String agentId,
            IncomingMessage message,
            SendOptions options,
            TaskProgress progress,
            TurnListener listener) {
        String sessionId = message.contextId();
        FollowedTurns.Followed followed = null;
        if (sessionId == null) {
            followed = follow(caller, agentId, message.taskId());
            sessionId = followed.sessionId();
        }
        ownContext(caller, agentId, sessionId);
        String turnId = message.taskId();
        List<ToolApproval> held = held(caller, sessionId, turnId);
        if (held.isEmpty()) {
            if (followed == null) followed = follow(caller, agentId, turnId);
            if (!followed.sessionId().equals(sessionId)) throw A2aError.taskNotFound();
            State state = snapshot(caller, followed).state();
            throw new A2aError(
                    A2aError.UNSUPPORTED_OPERATION,
                    state.terminal()
                            ? "the task has ended; send a new message in its context (contextId, no taskId)"
                            : "the task does not wait for an answer; only a task that waits for approval takes one",
                    "task_not_waiting");
        }
        boolean approve = message.approval()
                .orElseThrow(() -> A2aError.invalidParams("the task waits for approval of "
                        + held.stream().map(ToolApproval::toolName).toList()
                        + ": answer yes or no, or send a data part {\"approve\": true|false}"));
        // the answer so far and the held calls, from the turn's kept events, before the turn goes on
        try {
            replay(following.follow(caller, sessionId, turnId), progress);
        } catch (RefusalException forgotten) {
            // the log forgot the paused turn (its retention ran out): the task goes on from here
        }
        ApprovalDecision decision = approve
                ? new ApprovalDecision(true, null, message.comment())
                : ApprovalDecision.denial(message.comment());
        for (ToolApproval call : held) {
            approvals.decide(caller, sessionId, call.callId(), decision, options, listener);
        }
    }

    /** The caller's session {@code contextId} of this endpoint's agent; any other is "not found". */
    private void ownContext(Principal caller, String agentId, String contextId) {
        Session session = sessions.find(caller, contextId).orElseThrow(() -> notFound("context"));
        if (!session.agentId().equals(agentId)) throw notFound("context");
    }

    /** The task as its kept events tell it. */
    ObjectNode get(Principal caller, String agentId, String taskId) {
        return snapshot(caller, follow(caller, agentId, taskId)).task();
    }

    /** The task from its kept events, and a pause that ended without them saying so ended. */
    TaskProgress snapshot(Principal caller, FollowedTurns.Followed followed) {
        TaskProgress progress = replay(followed, newProgress());
        if (progress.state() == State.INPUT_REQUIRED
                && held(caller, followed.sessionId(), progress.taskId()).isEmpty()) progress.pauseEndedElsewhere();
        return progress;
    }

    /** The calls the caller's turn {@code turnId} holds for approval. */
    private List<ToolApproval> held(Principal caller, String sessionId, String turnId) {
        if (approvals == null) return List.of();
        return approvals.pending(caller, sessionId).stream()
                .filter(a -> a.turnId().equals(turnId))
                .toList();
    }

    /**
     * Cancels a working task and answers it as it ended (normally {@code canceled}).
     *
     * @throws A2aError TaskNotCancelable for a task that ended, or waits for approval (answer "no" to deny its calls)
     */
    ObjectNode cancel(Principal caller, String agentId, String taskId) {
        FollowedTurns.Followed followed = follow(caller, agentId, taskId);
        TaskProgress progress = newProgress();
        long last = replay(followed, progress, 0);
        if (progress.state() == State.INPUT_REQUIRED
                && held(caller, followed.sessionId(), progress.taskId()).isEmpty()) progress.pauseEndedElsewhere();
        if (progress.state() != State.WORKING)
            throw new A2aError(
                    A2aError.TASK_NOT_CANCELABLE,
                    progress.state() == State.INPUT_REQUIRED
                            ? "the task waits for approval: answer no to deny its calls"
                            : "the task has already ended",
                    "task_not_cancelable");
        sessions.cancel(caller, followed.sessionId());
        Instant until = clock.instant().plus(CANCEL_WAIT);
        try (TurnEventLog.Reader reader = followed.reader()) {
            while (progress.state() == State.WORKING && clock.instant().isBefore(until)) {
                for (TurnEventLog.LoggedEvent e : reader.read(last, Duration.ofSeconds(1))) {
                    last = e.id();
                    progress.apply(e.event());
                }
            }
        }
        return progress.task();
    }

    /** The caller's own task in a session of the endpoint's agent; any other is "not found". */
    FollowedTurns.Followed follow(Principal caller, String agentId, String taskId) {
        FollowedTurns.Followed followed;
        try {
            followed = following.follow(caller, taskId);
        } catch (RefusalException e) {
            throw A2aError.taskNotFound();
        }
        Session session = sessions.find(caller, followed.sessionId()).orElseThrow(A2aError::taskNotFound);
        if (!session.agentId().equals(agentId)) throw A2aError.taskNotFound();
        return followed;
    }

    /** Applies every kept event of the turn to {@code progress}. */
    TaskProgress replay(FollowedTurns.Followed followed, TaskProgress progress) {
        replay(followed, progress, 0);
        return progress;
    }

    /** Applies the kept events after {@code after}; returns the id of the last one applied. */
    long replay(FollowedTurns.Followed followed, TaskProgress progress, long after) {
        try (TurnEventLog.Reader reader = followed.reader()) {
            while (true) {
                List<TurnEventLog.LoggedEvent> read = reader.read(after, Duration.ZERO);
                if (read.isEmpty()) return after;
                for (TurnEventLog.LoggedEvent e : read) {
                    after = e.id();
                    progress.apply(e.event());
                }
            }
        }
    }

    private static A2aError notFound(String what) {
        return new A2aError(A2aError.TASK_NOT_FOUND, what + " not found", "not_found");
    }
}
