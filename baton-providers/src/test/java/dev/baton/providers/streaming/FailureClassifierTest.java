package dev.baton.providers.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.model.ModelFailure.Kind;
import java.io.EOFException;
import java.net.ConnectException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private final FailureClassifier classifier = new FailureClassifier("openai", Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void retry_after_in_seconds_becomes_a_duration() {
        var error = new ProviderHttpException(429, "slow down", Map.of("Retry-After", List.of("12")));

        var failure = classifier.classify(new RuntimeException(error));

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(12));
        assertThat(failure.getMessage()).contains("429").contains("slow down");
    }

    @Test
    void retry_after_as_an_http_date_is_measured_from_the_clock() {
        var error = new ProviderHttpException(429, "", Map.of("retry-after", List.of("Sat, 01 Mar 2025 12:00:30 GMT")));

        assertThat(classifier.classify(error).retryAfter()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void openais_millisecond_header_wins_over_retry_after() {
        var error = new ProviderHttpException(
                429, "", Map.of("Retry-After", List.of("2"), "retry-after-ms", List.of("1500")));

        assertThat(classifier.classify(error).retryAfter()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void an_unparseable_retry_after_is_left_out() {
        var error = new ProviderHttpException(429, "", Map.of("Retry-After", List.of("soon")));

        var failure = classifier.classify(error);

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isNull();
    }

    @Test
    void connection_failures_are_unavailable() {
        assertThat(classifier.classify(new ConnectException("refused")).kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(classifier
                        .classify(new RuntimeException(new EOFException("EOF reached")))
                        .kind())
                .isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void long_error_bodies_are_shortened() {
        var error = new ProviderHttpException(400, "x".repeat(10_000), Map.of());

        var failure = classifier.classify(error);

        assertThat(failure.kind()).isEqualTo(Kind.BAD_REQUEST);
        assertThat(failure.getMessage().length()).isLessThan(700);
    }
}
