package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.hook.HookContext;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ToolSpec;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the steps of one turn share once its user message is saved, whether the turn just started or goes on from a
 * pause. {@link #progress} is the part that changes as the steps run.
 *
 * @param binding the model the turn's calls go to, with its fallbacks
 * @param specs the tools offered to the model
 * @param hookContext what after_ai modules see, the current message included
 * @param startedNanos when this run of the turn started ({@link System#nanoTime()}), for the turn's latency
 * @param sink the turn's events, called only from the thread running the turn
 */
record RunningTurn(
        TurnRequest request,
        Message user,
        ModelBinding binding,
        List<ToolSpec> specs,
        TurnProgress progress,
        AnswerStream out,
        HookContext hookContext,
        long startedNanos,
        Consumer<TurnEvent> sink) {}
