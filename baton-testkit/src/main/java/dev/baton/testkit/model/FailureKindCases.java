package dev.baton.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@link ModelGatewayContract}'s cases for a provider that fails: each way maps to the {@link Kind} a caller acts
 * on (retry, back off, give up).
 */
abstract class FailureKindCases extends StreamedReplyCases {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "500, UNAVAILABLE",
        "502, UNAVAILABLE",
        "503, UNAVAILABLE",
        "504, UNAVAILABLE",
        "529, UNAVAILABLE",
        "401, AUTHENTICATION",
        "403, AUTHENTICATION",
        "400, BAD_REQUEST",
        "404, BAD_REQUEST",
        "413, BAD_REQUEST",
        "422, BAD_REQUEST"
    })
    void an_error_status_maps_to_its_failure_kind(int status, Kind expected) {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(new Fault.HttpError(status, "simulated", null, "simulated " + status));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure).isNotNull();
        assertThat(failure.kind()).isEqualTo(expected);
        assertThat(failure.retryAfter()).isNull();
    }

    @Test
    void a_429_is_rate_limited_and_carries_retry_after() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.rateLimited(7));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void a_stream_dropped_before_completion_is_unavailable_after_the_partial_deltas() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six seven eight"));
        simulator().enqueueFault(Fault.disconnectAfter(2));
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), deltas::add));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(deltas).hasSize(2);
    }

    @Test
    void an_error_reported_mid_stream_is_unavailable_after_the_partial_deltas() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six seven eight"));
        simulator().enqueueFault(new Fault.StreamError(2, "api_error", "simulated mid-stream failure"));
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), deltas::add));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(deltas).hasSize(2);
    }

    @Test
    void a_malformed_chunk_is_unavailable() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six"));
        simulator().enqueueFault(Fault.malformedChunk(1));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void a_refused_connection_is_unavailable() {
        var closed = LlmSimulator.start(SimulatorScript.replyingWith("gone"));
        closed.close();
        var gateway = gatewayOn(closed);
        try {
            var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));
            assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        } finally {
            try {
                release(gateway);
            } catch (Exception ignored) {
                // nothing to release on a gateway that never connected
            }
        }
    }
}
