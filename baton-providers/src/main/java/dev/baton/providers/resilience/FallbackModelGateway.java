package dev.baton.providers.resilience;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary model with fallbacks: each binding is asked in order until one answers. A binding is skipped when its
 * provider failed (after its own retry) or its circuit is open; the chain stops at once when text already reached
 * the client (another model would repeat or contradict it), when the turn was cancelled, or when the provider
 * rejected the request itself (another provider would most likely reject it too). The reply is marked with the
 * provider that answered and names its model, so the turn's {@code done} event and usage record say who answered.
 * All bindings share the request's timeout.
 */
final class FallbackModelGateway implements ModelGateway {
    private static final Logger log = LoggerFactory.getLogger(FallbackModelGateway.class);

    /** Less time than this left is not worth a fallback: it would only time out. */
    private static final Duration MIN_FALLBACK_TIME = Duration.ofMillis(500);

    /** Each binding's gateway is a {@link ResilientModelGateway}. */
    private final List<ModelBinding> chain;

    FallbackModelGateway(List<ModelBinding> chain) {
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a fallback chain needs at least the primary model");
        }
        chain.forEach(b -> {
            if (!(b.gateway() instanceof ResilientModelGateway)) {
                throw new IllegalArgumentException("fallback chain gateways must be resilient: " + b.reference());
            }
        });
        this.chain = List.copyOf(chain);
    }

    /** The primary's provider: the one the turn meant to ask. */
    @Override
    public String provider() {
        return chain.getFirst().gateway().provider();
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        long deadline = System.nanoTime() + request.timeout().toNanos();
        AtomicBoolean textSent = new AtomicBoolean();
        ModelFailure last = null;
        for (int i = 0; i < chain.size(); i++) {
            ModelBinding binding = chain.get(i);
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            if (i > 0 && left.compareTo(MIN_FALLBACK_TIME) < 0) {
                log.info("no time left to fall back to {} after {}", binding.reference(), last.getMessage());
                break;
            }
            ModelRequest call = request.attempt(binding.model(), left, request.cancellation());
            try {
                ModelReply reply = ((ResilientModelGateway) binding.gateway()).stream(call, onDelta, textSent);
                if (i > 0) {
                    log.info(
                            "{} answered as fallback for {}",
                            binding.reference(),
                            chain.getFirst().reference());
                }
                String model = reply.model() == null || reply.model().isBlank() ? binding.model() : reply.model();
                return new ModelReply(
                        reply.text(),
                        reply.toolCalls(),
                        reply.usage(),
                        model,
                        reply.finishReason(),
                        binding.gateway().provider());
            } catch (ModelFailure failure) {
                last = failure;
                if (!fallBackAfter(failure, textSent.get(), request) || i == chain.size() - 1) {
                    throw failure;
                }
                log.warn(
                        "{} failed ({}), falling back to {}: {}",
                        binding.reference(),
                        failure.kind(),
                        chain.get(i + 1).reference(),
                        failure.getMessage());
            }
        }
        throw last;
    }

    private static boolean fallBackAfter(ModelFailure failure, boolean textSent, ModelRequest request) {
        if (textSent || request.cancellation().isCancelled()) {
            return false;
        }
        return switch (failure.kind()) {
            case UNAVAILABLE, TIMEOUT, RATE_LIMITED, AUTHENTICATION -> true;
            case BAD_REQUEST, CANCELLED -> false;
        };
    }

    @Override
    public String toString() {
        return "FallbackModelGateway"
                + chain.stream().map(ModelBinding::reference).toList();
    }
}
