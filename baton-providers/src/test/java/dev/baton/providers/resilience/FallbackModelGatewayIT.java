package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelReply;
import dev.baton.providers.openai.OpenAiCompatibleConfig;
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

/** A primary model with a fallback on a second provider: two simulators, two endpoints, over HTTP. */
class FallbackModelGatewayIT {
    static final ResilienceSettings SETTINGS = new ResilienceSettings(
            Duration.ofMillis(400), 1.5, Duration.ofSeconds(2), 0.2, BreakerSettings.MODEL_DEFAULTS);

    final SettableClock clock = new SettableClock();
    LlmSimulator primary;
    LlmSimulator backup;
    ConfiguredModelResolver configured;
    ResilientModelResolver resolver;
    ModelBinding binding;

    @BeforeEach
    void start() {
        primary = LlmSimulator.start(SimulatorScript.replyingWith("Primary answers."));
        backup = LlmSimulator.start(SimulatorScript.replyingWith("Backup answers."));
        configured = ConfiguredModelResolver.builder()
                .simulator(primary.baseUrl())
                .compatible("backup", OpenAiCompatibleConfig.compatible("backup", backup.baseUrl(), null), "spare-1")
                .build();
        resolver = new ResilientModelResolver(configured, SETTINGS, clock, wait -> {}, () -> 0.5);
        binding = resolver.resolve("simulator:main", List.of("compatible:backup"));
    }

    @AfterEach
    void stop() {
        resolver.close();
        primary.close();
        backup.close();
    }

    ModelReply call(List<ModelDelta> deltas) {
        return BindingCalls.sayHello(binding, deltas);
    }

    ModelReply call() {
        return call(new CopyOnWriteArrayList<>());
    }

    @Test
    void the_primary_answers_when_it_is_healthy_and_the_backup_is_never_asked() {
        ModelReply reply = call();

        assertThat(reply.text()).isEqualTo("Primary answers.");
        assertThat(reply.provider()).isEqualTo("simulator");
        assertThat(reply.model()).isEqualTo("main");
        assertThat(backup.requests()).isEmpty();
    }

    @Test
    void when_the_primary_fails_after_its_retry_the_backup_answers_and_says_so() {
        primary.enqueueFault(Fault.http503());
        primary.enqueueFault(Fault.http503());

        ModelReply reply = call();

        assertThat(reply.text()).isEqualTo("Backup answers.");
        assertThat(reply.provider()).isEqualTo("backup");
        assertThat(reply.model()).isEqualTo("spare-1");
        assertThat(primary.requests()).hasSize(2);
        assertThat(backup.requests()).hasSize(1);
        assertThat(backup.requests().getFirst().model()).isEqualTo("spare-1");
    }

    @Test
    void while_the_primarys_circuit_is_open_the_backup_answers_without_the_primary_being_touched() {
        for (int i = 0; i < 3; i++) {
            primary.enqueueFault(Fault.http500());
        }
        call();
        call();
        call();
        assertThat(resolver.resilient(configured.resolve("simulator:main").gateway())
                        .breaker()
                        .state())
                .isEqualTo(State.OPEN);
        primary.clearRequests();
        backup.clearRequests();

        ModelReply reply = call();

        assertThat(reply.provider()).isEqualTo("backup");
        assertThat(primary.requests()).isEmpty();
        assertThat(backup.requests()).hasSize(1);
    }

    @Test
    void a_primary_that_stays_silent_falls_back_after_its_first_token_limits() {
        primary.enqueueFault(Fault.hang());
        primary.enqueueFault(Fault.hang());

        assertThat(call().provider()).isEqualTo("backup");
        assertThat(primary.requests()).hasSize(2);
    }

    @Test
    void no_fallback_once_text_reached_the_client() {
        primary.enqueueFault(Fault.disconnectAfter(1));
        List<ModelDelta> deltas = new CopyOnWriteArrayList<>();

        ModelFailure failure = catchThrowableOfType(ModelFailure.class, () -> call(deltas));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(deltas).hasSize(1);
        assertThat(backup.requests()).isEmpty();
    }

    @Test
    void no_fallback_for_a_request_the_provider_rejected_as_bad() {
        primary.enqueueFault(
                new Fault.HttpError(400, "invalid_request_error", "context_length_exceeded", "context too long"));

        assertThat(catchThrowableOfType(ModelFailure.class, this::call).kind()).isEqualTo(Kind.BAD_REQUEST);
        assertThat(backup.requests()).isEmpty();
    }

    @Test
    void a_rate_limited_primary_falls_back() {
        primary.enqueueFault(Fault.rateLimited(30));

        assertThat(call().provider()).isEqualTo("backup");
        assertThat(primary.requests()).hasSize(1);
    }

    @Test
    void when_every_model_fails_the_last_failure_is_reported() {
        primary.enqueueFault(Fault.http500());
        backup.enqueueFault(Fault.rateLimited(9));

        ModelFailure failure = catchThrowableOfType(ModelFailure.class, this::call);

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void an_unresolvable_fallback_is_left_out_and_the_primary_still_works() {
        ModelBinding withBroken = resolver.resolve("simulator:main", List.of("nowhere:model"));

        assertThat(withBroken.gateway()).isInstanceOf(ResilientModelGateway.class);
        assertThat(withBroken.model()).isEqualTo("main");
    }
}
