package dev.baton.testkit.store;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A model that answers each call with the next step of a script, for {@link TurnPersistenceContract}: in process, so
 * the contract needs no provider adapter. Every reply reports {@link #USAGE}; a call beyond the script fails (as a
 * bad request).
 */
final class ScriptedModel implements ModelGateway, ModelResolver {
    static final String MODEL = "scripted-1";
    static final TokenUsage USAGE = new TokenUsage(100, 20, 0);

    /** One model call: streams deltas through {@code onDelta} and returns the reply, or throws. */
    @FunctionalInterface
    interface Step {
        ModelReply answer(ModelRequest request, Consumer<ModelDelta> onDelta);
    }

    private final Deque<Step> steps;
    private final List<ModelRequest> requests = new CopyOnWriteArrayList<>();

    private ScriptedModel(List<Step> steps) {
        this.steps = new ArrayDeque<>(steps);
    }

    static ScriptedModel of(Step... steps) {
        return new ScriptedModel(List.of(steps));
    }

    /** Streams the text in two halves and answers with it. */
    static Step text(String answer) {
        return (request, onDelta) -> {
            int half = answer.length() / 2;
            onDelta.accept(new ModelDelta.Text(answer.substring(0, half)));
            onDelta.accept(new ModelDelta.Text(answer.substring(half)));
            return new ModelReply(answer, List.of(), USAGE, MODEL, "stop");
        };
    }

    /** Asks for the tool calls, with no text. */
    static Step toolCalls(ToolCallRequest... calls) {
        return (request, onDelta) -> new ModelReply("", List.of(calls), USAGE, MODEL, "tool_calls");
    }

    /** Streams {@code partial} (may be empty), then fails. */
    static Step failing(String partial, ModelFailure.Kind kind) {
        return (request, onDelta) -> {
            if (!partial.isEmpty()) {
                onDelta.accept(new ModelDelta.Text(partial));
            }
            throw new ModelFailure(kind, "scripted failure");
        };
    }

    static ToolCallRequest call(String id, String name, String argumentsJson) {
        return new ToolCallRequest(id, name, argumentsJson);
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        requests.add(request);
        Step step;
        synchronized (steps) {
            step = steps.poll();
        }
        if (step == null) {
            throw new ModelFailure(ModelFailure.Kind.BAD_REQUEST, "the script has no step for call " + requests.size());
        }
        return step.answer(request, onDelta);
    }

    @Override
    public String provider() {
        return "scripted";
    }

    @Override
    public ModelBinding resolve(String reference) {
        return new ModelBinding(reference, this, MODEL);
    }

    /** Every request the model was sent, in order. */
    List<ModelRequest> requests() {
        return List.copyOf(requests);
    }
}
