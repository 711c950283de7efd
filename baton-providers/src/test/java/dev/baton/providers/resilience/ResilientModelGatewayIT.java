package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelReply;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The retry, time-to-first-token and breaker rules of one provider, over HTTP against the simulator's faults. */
class ResilientModelGatewayIT {
    static final String ANSWER = "The simulator answers in several words.";
    static final Duration FIRST_TOKEN = Duration.ofMillis(400);
    static final ResilienceSettings SETTINGS =
            new ResilienceSettings(FIRST_TOKEN, 1.5, Duration.ofSeconds(2), 0.2, BreakerSettings.MODEL_DEFAULTS);

    final SettableClock clock = new SettableClock();
    final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    LlmSimulator simulator;
    ConfiguredModelResolver configured;
    ResilientModelResolver resolver;
    ModelBinding binding;

    @BeforeEach
    void start() {
        simulator = LlmSimulator.start(SimulatorScript.replyingWith(ANSWER));
        configured =
                ConfiguredModelResolver.builder().simulator(simulator.baseUrl()).build();
        // a random of 0.75 puts the jitter at +10%: the 2 s retry delay becomes 2.2 s
        resolver = new ResilientModelResolver(configured, SETTINGS, clock, sleeps::add, () -> 0.75);
        binding = resolver.resolve("simulator:default");
    }

    @AfterEach
    void stop() {
        resolver.close();
        simulator.close();
    }

    ModelReply call(List<ModelDelta> deltas) {
        return BindingCalls.sayHello(binding, deltas);
    }

    ModelReply call() {
        return call(new CopyOnWriteArrayList<>());
    }

    ModelFailure failingCall() {
        return catchThrowableOfType(ModelFailure.class, this::call);
    }

    State breakerState() {
        return resolver.resilient(configured.resolve("simulator:default").gateway())
                .breaker()
                .state();
    }

    @Test
    void a_503_is_retried_once_after_the_jittered_delay() {
        simulator.enqueueFault(Fault.http503());

        assertThat(call().text()).isEqualTo(ANSWER);

        assertThat(simulator.requests()).hasSize(2);
        assertThat(sleeps).containsExactly(Duration.ofMillis(2200));
    }

    @Test
    void a_second_503_is_not_retried_again() {
        simulator.enqueueFault(Fault.http503());
        simulator.enqueueFault(Fault.http503());

        assertThat(failingCall().kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(simulator.requests()).hasSize(2);
    }

    @Test
    void a_plain_500_is_not_retried() {
        simulator.enqueueFault(Fault.http500());

        assertThat(failingCall().kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(simulator.requests()).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void a_429_is_never_retried_and_keeps_the_providers_retry_after() {
        simulator.enqueueFault(Fault.rateLimited(7));

        ModelFailure failure = failingCall();

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(simulator.requests()).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void a_rejected_key_is_never_retried_and_is_logged_as_critical() {
        var errors = new ListAppender<ILoggingEvent>();
        errors.start();
        var log = (Logger) LoggerFactory.getLogger(ResilientModelGateway.class);
        log.addAppender(errors);
        try {
            simulator.enqueueFault(new Fault.HttpError(401, "invalid_request_error", "invalid_api_key", "bad key"));

            assertThat(failingCall().kind()).isEqualTo(Kind.AUTHENTICATION);
        } finally {
            log.detachAppender(errors);
        }
        assertThat(simulator.requests()).hasSize(1);
        assertThat(errors.list).anySatisfy(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getFormattedMessage()).startsWith("CRITICAL");
            assertThat(e.getKeyValuePairs())
                    .anySatisfy(kv -> assertThat(kv.key + "=" + kv.value).isEqualTo("severity=critical"));
        });
        assertThat(breakerState()).isEqualTo(State.CLOSED);
    }

    @Test
    void a_silent_provider_hits_the_first_token_limit_and_is_retried_once_with_a_longer_one() {
        simulator.enqueueFault(Fault.hang());

        long started = System.nanoTime();
        assertThat(call().text()).isEqualTo(ANSWER);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(simulator.requests()).hasSize(2);
        assertThat(simulator.awaitClientDisconnect(Duration.ofSeconds(5)))
                .as("the silent call's connection was closed")
                .isTrue();
        assertThat(took).isGreaterThanOrEqualTo(FIRST_TOKEN).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void a_provider_silent_twice_times_out_after_the_first_and_the_longer_second_limit() {
        simulator.enqueueFault(Fault.hang());
        simulator.enqueueFault(Fault.hang());

        long started = System.nanoTime();
        ModelFailure failure = failingCall();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(failure.getMessage()).contains("no first token within PT0.6S");
        assertThat(simulator.requests()).hasSize(2);
        // 400 ms, then 600 ms: far below the call's own 10 s limit
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(1000)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void a_stream_broken_after_text_reached_the_client_is_not_retried() {
        simulator.enqueueFault(Fault.disconnectAfter(2));
        List<ModelDelta> deltas = new CopyOnWriteArrayList<>();

        ModelFailure failure = catchThrowableOfType(ModelFailure.class, () -> call(deltas));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(deltas).hasSize(2);
        assertThat(simulator.requests()).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void a_users_own_bad_requests_never_open_the_breaker() {
        for (int i = 0; i < 5; i++) {
            simulator.enqueueFault(
                    new Fault.HttpError(400, "invalid_request_error", "context_length_exceeded", "context too long"));
            assertThat(failingCall().kind()).isEqualTo(Kind.BAD_REQUEST);
        }
        for (int i = 0; i < 5; i++) {
            simulator.enqueueFault(Fault.rateLimited(1));
            assertThat(failingCall().kind()).isEqualTo(Kind.RATE_LIMITED);
        }

        assertThat(breakerState()).isEqualTo(State.CLOSED);
        assertThat(simulator.requests()).hasSize(10);
        assertThat(call().text()).isEqualTo(ANSWER);
    }

    @Test
    void the_breaker_opens_after_three_failures_fails_fast_and_closes_after_a_successful_probe() {
        for (int i = 0; i < 3; i++) {
            simulator.enqueueFault(Fault.http503());
        }
        assertThat(failingCall().kind())
                .as("two failures: the call and its retry")
                .isEqualTo(Kind.UNAVAILABLE);
        assertThat(breakerState()).isEqualTo(State.CLOSED);
        assertThat(failingCall().kind()).as("the third failure opens it").isEqualTo(Kind.UNAVAILABLE);
        assertThat(breakerState()).isEqualTo(State.OPEN);
        assertThat(simulator.requests()).hasSize(3);

        clock.advance(Duration.ofSeconds(20));
        ModelFailure fast = failingCall();
        assertThat(fast.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(fast.retryAfter()).isEqualTo(Duration.ofSeconds(40));
        assertThat(simulator.requests())
                .as("an open breaker does not touch the provider")
                .hasSize(3);

        clock.advance(Duration.ofSeconds(41));
        assertThat(call().text()).isEqualTo(ANSWER);
        assertThat(breakerState()).isEqualTo(State.CLOSED);
        assertThat(simulator.requests()).hasSize(4);
    }

    @Test
    void a_half_open_probe_that_stays_silent_times_out_and_opens_the_breaker_again() {
        for (int i = 0; i < 3; i++) {
            simulator.enqueueFault(Fault.http500());
            failingCall();
        }
        assertThat(breakerState()).isEqualTo(State.OPEN);
        clock.advance(Duration.ofSeconds(61));
        simulator.enqueueFault(Fault.hang());

        ModelFailure probe = failingCall();

        assertThat(probe.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(breakerState()).isEqualTo(State.OPEN);
        assertThat(simulator.requests())
                .as("the probe's retry is refused by the re-opened breaker")
                .hasSize(4);
        assertThat(failingCall().retryAfter()).isEqualTo(Duration.ofSeconds(60));
    }
}
