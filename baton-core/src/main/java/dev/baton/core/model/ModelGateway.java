package dev.baton.core.model;

import java.util.function.Consumer;

/**
 * The port to a model provider. Blocking: call it on a virtual thread. Deltas (text, thinking, pieces of tool
 * calls) are handed to {@code onDelta} as they stream in; the finished reply (text, tool calls, usage) is returned
 * at the end.
 */
public interface ModelGateway {

    /**
     * @throws ModelFailure for every failure, including cancellation through the request's {@code Cancellation}
     */
    ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta);

    /** The provider name used in "provider:model" references, e.g. "openai". */
    String provider();
}
