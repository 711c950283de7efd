package dev.baton.core.model;

import java.util.function.Consumer;

/**
 * The port to a model provider. Blocking: call it on a virtual thread. Deltas (text, thinking, pieces of tool
 * calls) are handed to {@code onDelta} as they stream in, <em>on the calling thread</em> and in order; the finished
 * reply (text, tool calls, usage) is returned at the end. {@code onDelta} may block (the turn's client is slow): the
 * gateway then reads no further of the provider's stream until it returns, and that time is not the provider's.
 * A gateway returns or throws within the request's timeout and soon after its cancellation fires, whatever the
 * provider does: the turn waits for nothing else.
 */
public interface ModelGateway {

    /**
     * @throws ModelFailure for every failure, including cancellation through the request's {@code Cancellation};
     *     what {@code onDelta} throws propagates unchanged
     */
    ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta);

    /** The provider name used in "provider:model" references, e.g. "openai". */
    String provider();
}
