package dev.baton.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.Fault;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link ModelGateway} must do, checked over real HTTP against the LLM simulator. A provider's
 * suite extends this class and says how to build its gateway on a simulator; provider-specific wire
 * assertions belong in the subclass. baton-providers runs it on its OpenAI, Anthropic, Ollama and Azure gateways;
 * a gateway of one's own whose wire the simulator speaks runs it the same way.
 *
 * <p>The cases come in groups, one class each: the simulator and the provider's hooks ({@code ModelGatewayFixture}),
 * successful streams ({@code StreamedReplyCases}), failures ({@code FailureKindCases}), and here cancellation,
 * timeouts and concurrent calls.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ModelGatewayContract extends FailureKindCases {

    @Test
    void cancelling_while_the_provider_hangs_returns_promptly_and_closes_the_connection() throws Exception {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.hang());
        var cancellation = new Cancellation();

        try (var canceller = Executors.newVirtualThreadPerTaskExecutor()) {
            canceller.submit(() -> {
                simulator().awaitRequest(0, GENEROUS);
                cancellation.cancel();
                return null;
            });
            long started = System.nanoTime();
            var failure = catchThrowableOfType(
                    ModelFailure.class, () -> gateway.stream(ask("hi", List.of(), cancellation, GENEROUS), d -> {}));

            assertThat(failure.kind()).isEqualTo(Kind.CANCELLED);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY.plusSeconds(2));
        }
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void cancelling_mid_stream_returns_promptly_after_some_deltas_and_closes_the_connection() throws Exception {
        var longText = String.join(" ", Collections.nCopies(400, "word"));
        var gateway = start(
                SimulatorScript.builder().tokensPerSecond(50).fallback(longText).build());
        var cancellation = new Cancellation();
        var threeDeltas = new CountDownLatch(3);
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        try (var canceller = Executors.newVirtualThreadPerTaskExecutor()) {
            canceller.submit(() -> {
                threeDeltas.await();
                cancellation.cancel();
                return null;
            });
            var failure = catchThrowableOfType(
                    ModelFailure.class,
                    () -> gateway.stream(ask("hi", List.of(), cancellation, GENEROUS), delta -> {
                        deltas.add(delta);
                        threeDeltas.countDown();
                    }));
            long cancelledAt = System.nanoTime();

            assertThat(failure.kind()).isEqualTo(Kind.CANCELLED);
            assertThat(deltas).hasSizeGreaterThanOrEqualTo(3).hasSizeLessThan(400);
            assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isLessThan(PROMPTLY);
        }
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void a_call_that_outlives_its_timeout_fails_with_timeout_and_closes_the_connection() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.hang());
        var timeout = Duration.ofMillis(700);

        long started = System.nanoTime();
        var failure = catchThrowableOfType(
                ModelFailure.class, () -> gateway.stream(ask("hi", List.of(), new Cancellation(), timeout), d -> {}));
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(elapsed).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plus(PROMPTLY));
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void an_already_cancelled_request_fails_without_calling_the_provider() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        var cancellation = new Cancellation();
        cancellation.cancel();

        assertThatThrownBy(() -> gateway.stream(ask("hi", List.of(), cancellation, GENEROUS), d -> {}))
                .isInstanceOfSatisfying(
                        ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(Kind.CANCELLED));
        assertThat(simulator().requests()).isEmpty();
    }

    @Test
    void an_exception_from_the_delta_consumer_propagates_and_closes_the_connection() {
        var longText = String.join(" ", Collections.nCopies(400, "word"));
        var gateway = start(
                SimulatorScript.builder().tokensPerSecond(50).fallback(longText).build());
        var consumerFailure = new IllegalStateException("the client went away");

        assertThatThrownBy(() -> gateway.stream(ask("hi"), delta -> {
                    throw consumerFailure;
                }))
                .isSameAs(consumerFailure);
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void concurrent_calls_on_one_gateway_each_get_their_own_answer() throws Exception {
        var gateway = start(SimulatorScript.builder()
                .whenUserMatches("echo (\\w+)", Reply.text("you said $1"))
                .build());
        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            var answers = new ArrayList<Future<String>>();
            for (int i = 0; i < 8; i++) {
                var word = "w" + i;
                answers.add(callers.submit(
                        () -> gateway.stream(ask("echo " + word), d -> {}).text()));
            }
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("you said w" + i);
            }
        }
    }

    @Test
    void the_gateway_serves_the_next_call_after_a_cancelled_one() {
        var gateway = start(SimulatorScript.replyingWith("fresh answer"));
        simulator().enqueueFault(Fault.hang());
        var timeout = Duration.ofMillis(300);
        catchThrowableOfType(
                ModelFailure.class, () -> gateway.stream(ask("hi", List.of(), new Cancellation(), timeout), d -> {}));

        var reply = gateway.stream(ask("again"), d -> {});

        assertThat(reply.text()).isEqualTo("fresh answer");
    }
}
