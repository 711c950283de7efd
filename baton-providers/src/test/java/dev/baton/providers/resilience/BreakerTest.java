package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.testkit.time.SettableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class BreakerTest {
    private final SettableClock clock = new SettableClock();
    private final Breaker breaker = Breaker.forProvider("acme", BreakerSettings.MODEL_DEFAULTS, clock);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger circuitLog = (Logger) LoggerFactory.getLogger("baton.circuit");

    private Level levelBefore;

    @BeforeEach
    void listen() {
        events.start();
        levelBefore = circuitLog.getLevel();
        circuitLog.setLevel(Level.INFO);
        circuitLog.addAppender(events);
    }

    @AfterEach
    void stopListening() {
        circuitLog.detachAppender(events);
        circuitLog.setLevel(levelBefore);
    }

    private void fail() {
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.onFailure(1_000_000, new RuntimeException("503"));
    }

    private void succeed() {
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.onSuccess(1_000_000);
    }

    private void ignored() {
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.release();
    }

    @Test
    void three_consecutive_failures_open_it_and_it_then_fails_fast_until_the_open_time_is_over() {
        fail();
        fail();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        fail();

        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquire()).isFalse();
        assertThat(breaker.remainingOpen()).isEqualTo(Duration.ofSeconds(60));
        clock.advance(Duration.ofSeconds(45));
        assertThat(breaker.tryAcquire()).isFalse();
        assertThat(breaker.remainingOpen()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void a_success_in_between_means_the_failures_were_not_consecutive() {
        fail();
        fail();
        succeed();
        fail();
        fail();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        fail();
        assertThat(breaker.state()).isEqualTo(State.OPEN);
    }

    @Test
    void calls_that_say_nothing_about_the_provider_never_count() {
        for (int i = 0; i < 20; i++) {
            ignored();
        }
        fail();
        ignored();
        fail();
        ignored();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void after_the_open_time_one_probe_goes_through_and_its_success_closes_the_breaker() {
        fail();
        fail();
        fail();
        clock.advance(Duration.ofSeconds(61));

        assertThat(breaker.tryAcquire()).as("the probe").isTrue();
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire())
                .as("a second call while the probe runs")
                .isFalse();
        breaker.onSuccess(1_000_000);

        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        succeed();
        succeed();
        assertThat(events.list)
                .extracting(e -> e.getKeyValuePairs().stream()
                        .filter(kv -> !kv.key.equals("provider"))
                        .map(kv -> kv.key + "=" + kv.value)
                        .toList())
                .containsExactly(
                        List.of("event=breaker_state_changed", "from=CLOSED", "to=OPEN"),
                        List.of("event=breaker_state_changed", "from=OPEN", "to=HALF_OPEN"),
                        List.of("event=breaker_state_changed", "from=HALF_OPEN", "to=CLOSED"));
        assertThat(events.list)
                .allSatisfy(e -> assertThat(e.getKeyValuePairs())
                        .anySatisfy(kv -> assertThat(kv.key + "=" + kv.value).isEqualTo("provider=acme")));
    }

    @Test
    void a_failed_probe_opens_the_breaker_again_for_another_full_open_time() {
        fail();
        fail();
        fail();
        clock.advance(Duration.ofSeconds(61));
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.onFailure(1_000_000, new RuntimeException("timeout"));

        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.remainingOpen()).isEqualTo(Duration.ofSeconds(60));
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void a_probe_that_ends_without_a_verdict_gives_its_place_to_the_next_one() {
        fail();
        fail();
        fail();
        clock.advance(Duration.ofSeconds(61));
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.release();

        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.onSuccess(1_000_000);
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void tool_source_breakers_use_their_own_threshold_and_name_the_source() {
        Breaker tools = Breaker.forToolSource("tasks", BreakerSettings.TOOL_DEFAULTS, clock);
        for (int i = 0; i < 4; i++) {
            assertThat(tools.tryAcquire()).isTrue();
            tools.onFailure(1, new RuntimeException());
        }
        assertThat(tools.state()).isEqualTo(State.CLOSED);
        assertThat(tools.tryAcquire()).isTrue();
        tools.onFailure(1, new RuntimeException());
        assertThat(tools.state()).isEqualTo(State.OPEN);
        assertThat(tools.remainingOpen()).isEqualTo(Duration.ofSeconds(30));
        assertThat(events.list.getLast().getKeyValuePairs())
                .anySatisfy(kv -> assertThat(kv.key + "=" + kv.value).isEqualTo("toolSource=tasks"));
    }
}
