package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.turn.Cancellation;
import dev.baton.testkit.time.SettableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The breaker bookkeeping of {@link ResilientModelGateway} for ways a call can end that no provider over HTTP can
 * produce (an {@link Error} thrown inside the gateway); the HTTP behaviour is covered by the ITs over the simulator.
 */
class ResilientModelGatewayTest {
    private final SettableClock clock = new SettableClock();
    private final Breaker breaker = Breaker.forProvider("acme", BreakerSettings.MODEL_DEFAULTS, clock);
    private final AtomicBoolean throwError = new AtomicBoolean();
    private final ModelGateway delegate = new ModelGateway() {
        @Override
        public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
            if (throwError.get()) {
                throw new AssertionError("a bug inside the provider's client");
            }
            return new ModelReply("hi", List.of(), TokenUsage.ZERO, "m", "stop", "acme");
        }

        @Override
        public String provider() {
            return "acme";
        }
    };
    private final ResilientModelGateway gateway =
            new ResilientModelGateway(delegate, breaker, ResilienceSettings.DEFAULTS, wait -> {}, () -> 0.5);

    private static ModelRequest request() {
        return new ModelRequest(
                "m", List.of(new ChatMessage.User("hello")), List.of(), Duration.ofSeconds(30), new Cancellation());
    }

    @Test
    void an_error_thrown_by_a_half_open_probe_gives_its_permit_back_so_the_breaker_does_not_stay_stuck() {
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.tryAcquire()).isTrue();
            breaker.onFailure(1_000_000, new RuntimeException("503"));
        }
        clock.advance(Duration.ofSeconds(61));
        throwError.set(true);
        assertThatThrownBy(() -> gateway.stream(request(), d -> {})).isInstanceOf(AssertionError.class);

        throwError.set(false);
        assertThat(gateway.stream(request(), d -> {}).text()).isEqualTo("hi");
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void a_call_that_ended_leaves_no_first_token_watch_queued() {
        for (int i = 0; i < 20; i++) {
            assertThat(gateway.stream(request(), d -> {}).text()).isEqualTo("hi");
        }
        // each watch (10 s by default) used to stay queued after its call, with a CancellationException attached
        assertThat(Watchdogs.queued()).isZero();
    }
}
