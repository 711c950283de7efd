package dev.baton.providers.resilience;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import java.time.Duration;
import java.util.List;

/** The call the resilience suites make through a binding: the user says hello, with ten seconds to answer. */
final class BindingCalls {

    private BindingCalls() {}

    static ModelReply sayHello(ModelBinding binding, List<ModelDelta> deltas) {
        var request = new ModelRequest(
                binding.model(),
                List.of(new ChatMessage.User("hello")),
                List.of(),
                Duration.ofSeconds(10),
                new Cancellation());
        return binding.gateway().stream(request, deltas::add);
    }
}
