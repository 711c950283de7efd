package dev.baton.providers.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Gemini through its OpenAI-compatible endpoint ({@code .../v1beta/openai}), as docs/configuration.md configures it:
 * the OpenAI adapter answers as usual, and Google's own error bodies (an array, the wait of a 429 in a RetryInfo
 * detail instead of a header, a wrong key as 400 {@code API_KEY_INVALID}) are classified as OpenAI's are.
 */
class GeminiCompatibleIT {
    private LlmSimulator simulator;
    private ModelGateway gemini;

    @BeforeEach
    void start() {
        simulator = LlmSimulator.start(SimulatorScript.replyingWith("Hello from Gemini"));
        gemini = new OpenAiModelGateway(new OpenAiCompatibleConfig(
                "gemini", simulator.rootUrl() + "/v1beta/openai", "gemini-key", null, null, Map.of()));
    }

    @AfterEach
    void stop() {
        simulator.close();
    }

    @Test
    void a_turn_streams_its_answer_and_usage_from_the_compatible_path() {
        var deltas = new StringBuilder();
        var reply = gemini.stream(ask(), delta -> {
            if (delta instanceof ModelDelta.Text text) deltas.append(text.content());
        });

        assertThat(deltas.toString()).isEqualTo("Hello from Gemini");
        assertThat(reply.usage().inputTokens()).isPositive();
        assertThat(simulator.requests().getLast().path()).isEqualTo("/v1beta/openai/chat/completions");
        assertThat(simulator.requests().getLast().header("Authorization")).contains("Bearer gemini-key");
    }

    @Test
    void a_429_with_its_wait_in_the_body_is_rate_limited_for_that_long() {
        simulator.enqueueFault(new Fault.GoogleError(
                429,
                "RESOURCE_EXHAUSTED",
                "You exceeded your current quota, please check your plan and billing details.",
                null,
                Duration.ofSeconds(26)));

        var failure = fails();

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(26));
    }

    @Test
    void a_fractional_retry_delay_is_kept_to_the_millisecond() {
        simulator.enqueueFault(new Fault.GoogleError(429, "RESOURCE_EXHAUSTED", null, null, Duration.ofMillis(1500)));

        assertThat(fails().retryAfter()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void a_wrong_key_answered_400_api_key_invalid_is_an_authentication_failure() {
        simulator.enqueueFault(new Fault.GoogleError(
                400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "API_KEY_INVALID", null));

        var failure = fails();

        assertThat(failure.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(failure.getMessage()).contains("gemini answered 400").contains("API key not valid");
    }

    @Test
    void other_google_statuses_map_as_their_http_status_does() {
        simulator.enqueueFault(new Fault.GoogleError(400, "INVALID_ARGUMENT", "Invalid JSON payload", null, null));
        assertThat(fails().kind()).isEqualTo(Kind.BAD_REQUEST);

        simulator.enqueueFault(new Fault.GoogleError(403, "PERMISSION_DENIED", "denied", null, null));
        assertThat(fails().kind()).isEqualTo(Kind.AUTHENTICATION);

        simulator.enqueueFault(new Fault.GoogleError(503, "UNAVAILABLE", "The model is overloaded.", null, null));
        var unavailable = fails();
        assertThat(unavailable.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(unavailable.retryAfter()).isNull();
    }

    private ModelFailure fails() {
        return catchThrowableOfType(ModelFailure.class, () -> gemini.stream(ask(), d -> {}));
    }

    private static ModelRequest ask() {
        return new ModelRequest(
                "gemini-2.5-flash",
                List.of(new ChatMessage.User("hi")),
                List.of(),
                Duration.ofSeconds(20),
                new Cancellation());
    }
}
