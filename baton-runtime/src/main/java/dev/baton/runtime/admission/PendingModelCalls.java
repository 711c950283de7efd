package dev.baton.runtime.admission;

import dev.baton.core.auth.Principal;
import dev.baton.core.model.ModelReply;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link AdmittedModelCalls} handed out before the runtime that admits them is built: domains start (and contribute
 * their tools) before the runtime exists, and make their model calls once it runs. Bound once, when the runtime is
 * built; a call before that is a wiring bug and fails loudly rather than calling a model unadmitted.
 */
public final class PendingModelCalls implements AdmittedModelCalls {
    private final AtomicReference<AdmittedModelCalls> bound = new AtomicReference<>();

    /**
     * @throws IllegalStateException when bound already
     */
    public void bind(AdmittedModelCalls calls) {
        Objects.requireNonNull(calls, "calls");
        if (!bound.compareAndSet(null, calls)) throw new IllegalStateException("model calls are bound already");
    }

    @Override
    public void admit(Principal caller, String agentId) {
        target().admit(caller, agentId);
    }

    @Override
    public ModelReply call(ModelCall call) {
        return target().call(call);
    }

    private AdmittedModelCalls target() {
        AdmittedModelCalls calls = bound.get();
        if (calls == null) throw new IllegalStateException("model calls are not admitted before the runtime is built");
        return calls;
    }
}
