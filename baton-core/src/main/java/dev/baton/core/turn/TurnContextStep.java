package dev.baton.core.turn;

import dev.baton.core.context.BuiltContext;
import dev.baton.core.context.ContextBuilder;
import dev.baton.core.context.ContextRequest;
import dev.baton.core.context.PromptSections;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.tool.ToolCatalog;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a turn between its stored user message and its first model call: resolves the model, builds the
 * context (history, prompt sections, tool specs), writes it as a leased turn's first checkpoint, then runs the steps.
 * A new turn comes here once its user message is saved (and, with durable turns, leased with it in one transaction);
 * a turn taken over from an instance that died before that checkpoint ({@link TurnState#messages()} empty) comes
 * here too, from its stored message, so every turn whose user message is stored can be answered.
 */
final class TurnContextStep {
    private static final Logger log = LoggerFactory.getLogger(TurnContextStep.class);

    private final ConversationStore store;
    private final ModelResolver models;
    private final ToolCatalog tools;
    private final ModulePipeline modules;
    private final ContextBuilder contexts;
    private final TurnRecorder recorder;
    private final Function<TurnRequest, PromptSections> sections;
    private final TurnSteps steps;
    private final TurnEnding ending;
    private final Clock clock;

    TurnContextStep(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            ModulePipeline modules,
            ContextBuilder contexts,
            TurnRecorder recorder,
            Function<TurnRequest, PromptSections> sections,
            TurnSteps steps,
            TurnEnding ending,
            Clock clock) {
        this.store = store;
        this.models = models;
        this.tools = tools;
        this.modules = modules;
        this.contexts = contexts;
        this.recorder = recorder;
        this.sections = sections;
        this.steps = steps;
        this.ending = ending;
        this.clock = clock;
    }

    /**
     * Builds the turn's context and runs its steps.
     *
     * @param recent the session's history as loaded before the user message was stored
     * @param turnContext what the hooks see, the current message included
     * @param guidance what before_ai modules added to the system prompt for this turn
     */
    TurnOutcome run(
            TurnRequest request,
            Message user,
            List<Message> recent,
            HookContext turnContext,
            List<String> guidance,
            TurnProgress progress,
            long startedNanos,
            Consumer<TurnEvent> sink) {
        AnswerStream out = null;
        try {
            out = new AnswerStream(
                    progress.answer,
                    modules.outputFilters(turnContext),
                    modules.rewritesAnswers(request.agent()),
                    sink);
            ModelBinding binding;
            try {
                binding =
                        models.resolve(request.agent().model(), request.agent().fallbackModels());
            } catch (IllegalArgumentException e) {
                // the server checks every agent's model at start; an embedding that did not gets a clear code
                log.error(
                        "request {}: agent {} has no usable model: {}",
                        request.requestId(),
                        request.agent().id(),
                        e.getMessage());
                return ending.fail(
                        request,
                        user,
                        progress,
                        out,
                        MessageStatus.INCOMPLETE,
                        TurnFailures.modelNotConfigured(),
                        sink);
            }
            List<ToolSpec> specs = tools.specsFor(request.agent(), request.principal());
            PromptSections promptSections = sectionsFor(request).withGuidance(guidance);
            BuiltContext context = contexts.build(
                    new ContextRequest(
                            request.principal(),
                            request.agent(),
                            request.session().id(),
                            user,
                            promptSections,
                            specs),
                    recent);
            log.debug(
                    "request {}: context of {} history messages, {} of {} history tokens",
                    request.requestId(),
                    context.historyMessages(),
                    context.historyTokens(),
                    context.historyBudget());
            progress.messages.addAll(context.messages());
            // a leased turn's first checkpoint: a takeover from here on goes on with this context
            if (progress.fence != null) recorder.step(request, progress, List.of(), out);
            return steps.run(
                    new RunningTurn(request, user, binding, specs, progress, out, turnContext, startedNanos, sink));
        } catch (RuntimeException e) {
            return ending.failed(e, request, user, progress, out, sink);
        }
    }

    /**
     * Goes on with a turn taken over before its context was stored: its user message is the stored one (not saved
     * again, and on_message modules do not see it again: they did). before_ai modules do not run again either: what
     * they decided about the message is stored with it (its text, their audit records and extractions), and running
     * them again would repeat their side effects (a webhook's call) and their rows; only the guidance they added to
     * that one turn's system prompt is not kept. The context is then built from the stored history as for a new turn.
     *
     * @param sink the turn's events, already guarded
     */
    TurnOutcome takenOverBeforeContext(TurnRequest takenOver, Consumer<TurnEvent> sink) {
        long startedNanos = System.nanoTime();
        TurnResume resume = takenOver.resume();
        TurnState state = resume.state();
        sink.accept(new TurnEvent.Started(
                state.turnId(), takenOver.session().id(), takenOver.requestId(), state.answerText()));
        TurnProgress progress = TurnProgress.resume(state, clock);
        progress.fence = resume.fence();
        String userId = takenOver.principal().userId();
        String sessionId = takenOver.session().id();
        Message user;
        List<Message> recent;
        try {
            user = store.recentMessages(userId, sessionId, 1).stream()
                    .filter(m -> m.id().equals(state.userMessageId()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "the user message of turn " + state.turnId() + " is not the session's newest"));
            recent = contexts.recentHistory(userId, sessionId, takenOver.agent().limits()).stream()
                    .filter(m -> !m.id().equals(user.id()))
                    .toList();
        } catch (RuntimeException e) {
            return ending.failed(e, takenOver, null, progress, null, sink);
        }
        TurnRequest request = new TurnRequest(
                takenOver.requestId(),
                takenOver.principal(),
                takenOver.session(),
                takenOver.agent(),
                user.content(),
                takenOver.cancellation(),
                takenOver.assignment(),
                resume);
        HookContext turnContext =
                TurnHookContexts.of(request, recent, clock.instant()).withCurrentMessage(user.content());
        return run(request, user, recent, turnContext, List.of(), progress, startedNanos, sink);
    }

    private PromptSections sectionsFor(TurnRequest request) {
        PromptSections s = sections.apply(request);
        return s == null ? PromptSections.NONE : s;
    }
}
