package dev.baton.providers.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import dev.baton.providers.resilience.Watchdogs;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class GatewayCallTest {
    private final FailureClassifier failures = new FailureClassifier("test", Clock.systemUTC());

    private GatewayCall<String> open(Duration limit) {
        var request = new ModelRequest("m", List.of(), List.of(), limit, new Cancellation());
        return GatewayCall.open(request, limit, failures, () -> {});
    }

    @Test
    void the_stream_is_read_no_further_while_the_queue_is_full_and_on_once_the_caller_takes_pieces() {
        GatewayCall<String> call = open(Duration.ofMinutes(1));
        AtomicInteger readMore = new AtomicInteger();
        for (int i = 0; i < GatewayCall.CAPACITY - 1; i++) {
            call.next("piece " + i);
            call.whenRoom(readMore::incrementAndGet);
        }
        assertThat(readMore).as("room for every piece so far").hasValue(GatewayCall.CAPACITY - 1);
        call.next("last");
        call.whenRoom(readMore::incrementAndGet);
        assertThat(readMore).as("a full queue asks for nothing more").hasValue(GatewayCall.CAPACITY - 1);

        List<String> taken = new ArrayList<>();
        String answer = call.await(() -> {}, piece -> {
            taken.add(piece);
            return piece.equals("last") ? Optional.of("complete") : Optional.empty();
        });

        assertThat(answer).isEqualTo("complete");
        assertThat(taken).hasSize(GatewayCall.CAPACITY).endsWith("last");
        assertThat(readMore).as("read on once the caller made room").hasValue(GatewayCall.CAPACITY);
    }

    @Test
    void time_the_caller_holds_a_piece_is_not_the_provider_s() {
        GatewayCall<String> call = open(Duration.ofMillis(200));
        call.next("first");
        call.next("second");

        // the caller (a turn whose client stopped reading) holds the first piece past the call's whole limit
        String answer = call.await(() -> {}, piece -> {
            if (piece.equals("first")) holdFor(Duration.ofMillis(500));
            return piece.equals("second") ? Optional.of("complete") : Optional.empty();
        });

        assertThat(answer).isEqualTo("complete");
    }

    @Test
    @Timeout(30)
    void a_silent_stream_times_out_when_its_limit_has_passed() {
        GatewayCall<String> call = open(Duration.ofMillis(100));

        assertThatThrownBy(() -> call.await(() -> {}, piece -> Optional.of(piece)))
                .isInstanceOfSatisfying(
                        ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(Kind.TIMEOUT));
        assertThat(Watchdogs.queued()).as("the fired watch is gone").isZero();
    }

    @Test
    @Timeout(30)
    void a_stream_that_goes_silent_after_a_held_piece_still_times_out_at_its_moved_limit() {
        long started = System.nanoTime(); // before the call's clock starts, so the bound below holds on any machine
        GatewayCall<String> call = open(Duration.ofMillis(100));
        call.next("first");

        // the call's watch fires while the caller holds the piece; the limit moved on by the holding time, so the
        // call must watch again rather than time out at once or wait for ever
        assertThatThrownBy(() -> call.await(() -> {}, piece -> {
                    holdFor(Duration.ofMillis(300));
                    return Optional.empty();
                }))
                .isInstanceOfSatisfying(
                        ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(Kind.TIMEOUT));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("the holding time plus the whole limit")
                .isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    void a_call_that_ended_leaves_no_watch_queued() {
        for (int i = 0; i < 20; i++) {
            GatewayCall<String> call = open(Duration.ofMinutes(10));
            call.next("answer");
            String answer = call.await(() -> {}, Optional::of);
            assertThat(answer).isEqualTo("answer");
        }
        // a ten-minute watch per call left behind would hold each call's queue for ten minutes
        assertThat(Watchdogs.queued()).isZero();
    }

    /** What a caller held up by its client does: keeps the piece for a while (a real wait, not a synchronisation). */
    private static void holdFor(Duration hold) {
        long until = System.nanoTime() + hold.toNanos();
        for (long left; (left = until - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
    }
}
