package dev.baton.server.metrics;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import java.util.function.Consumer;

/** A gateway whose calls are timed and whose replies' tokens and cost are counted. */
final class MeteredModelGateway implements ModelGateway {
    private final ModelGateway delegate;
    private final String model;
    private final ModelCallMetrics metrics;

    /** @param model the model the binding asks for: the label of a call that failed before any reply named one */
    MeteredModelGateway(ModelGateway delegate, String model, ModelCallMetrics metrics) {
        this.delegate = delegate;
        this.model = model;
        this.metrics = metrics;
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        long started = System.nanoTime();
        try {
            ModelReply reply = delegate.stream(request, onDelta);
            metrics.succeeded(delegate.provider(), model, reply, System.nanoTime() - started);
            return reply;
        } catch (ModelFailure failure) {
            metrics.failed(delegate.provider(), model, failure.kind().name(), System.nanoTime() - started);
            throw failure;
        } catch (RuntimeException e) {
            metrics.failed(delegate.provider(), model, "ERROR", System.nanoTime() - started);
            throw e;
        }
    }

    @Override
    public String provider() {
        return delegate.provider();
    }

    @Override
    public String toString() {
        return "Metered[" + delegate + "]";
    }
}
