package dev.baton.runtime.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.Sessions;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TurnEventRecorderTest {
    private static final Principal ALICE = Principal.of("acme", "alice", Set.of(Sessions.READ));
    private final TurnEventLog log = TurnEventLog.inProcess(TurnEventLogSettings.DEFAULTS);

    @Test
    void a_turns_events_are_kept_as_events_numbered_from_its_start_and_read_back_after_it_ended() {
        TurnEventRecorder recorder = new TurnEventRecorder(log, ALICE);
        TurnEvent.Usage usage = new TurnEvent.Usage(3, 2, 0, new BigDecimal("0.000010"));
        List<TurnEvent> events = List.of(
                new TurnEvent.Started("turn-1", "s-1", "req-1"),
                new TurnEvent.Chunk("hel"),
                new TurnEvent.Chunk("lo"),
                new TurnEvent.Done("m-1", "sim:m", usage, 12, List.of()));
        assertThat(events.stream().mapToLong(recorder::record)).containsExactly(1L, 2L, 3L, 4L);
        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(1, Duration.ZERO))
                    .extracting(TurnEventLog.LoggedEvent::event)
                    .containsExactlyElementsOf(events.subList(1, 4));
        }
    }

    @Test
    void events_before_a_turn_started_are_not_kept() {
        assertThat(new TurnEventRecorder(log, ALICE).record(new TurnEvent.Chunk("early")))
                .isZero();
        assertThat(new TurnEventRecorder(null, ALICE).record(new TurnEvent.Started("turn-2", "s-1", "r")))
                .isZero();
    }

    @Test
    void a_turn_is_followed_by_its_user_or_an_observer_of_the_tenant_and_by_nobody_else() {
        new TurnEventRecorder(log, ALICE).record(new TurnEvent.Started("turn-1", "s-1", "req-1"));
        FollowedTurns following = new FollowedTurns(log);

        assertThat(following.follow(ALICE, "s-1", "turn-1").forgotten()).isFalse();
        following.follow(Principal.of("acme", "olga", Set.of(FollowedTurns.OBSERVE)), "s-1", "turn-1");
        for (var refused : List.of(
                new Object[] {ALICE, "s-2", "turn-1"},
                new Object[] {ALICE, "s-1", "turn-9"},
                new Object[] {Principal.of("acme", "alice", Set.of()), "s-1", "turn-1"},
                new Object[] {Principal.of("acme", "bob", Set.of(Sessions.READ)), "s-1", "turn-1"},
                new Object[] {Principal.of("globex", "olga", Set.of(FollowedTurns.OBSERVE)), "s-1", "turn-1"})) {
            assertThatThrownBy(() -> following.follow((Principal) refused[0], (String) refused[1], (String) refused[2]))
                    .isInstanceOfSatisfying(
                            RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.NotFound.class));
        }
    }

    @Test
    void a_turn_named_alone_is_found_with_its_session_by_whoever_may_follow_it() {
        new TurnEventRecorder(log, ALICE).record(new TurnEvent.Started("turn-2", "s-7", "req-1"));
        FollowedTurns following = new FollowedTurns(log);

        assertThat(following.follow(ALICE, "turn-2").sessionId()).isEqualTo("s-7");
        for (Principal refused :
                List.of(Principal.of("acme", "bob", Set.of(Sessions.READ)), Principal.of("acme", "alice", Set.of()))) {
            assertThatThrownBy(() -> following.follow(refused, "turn-2"))
                    .isInstanceOfSatisfying(
                            RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.NotFound.class));
        }
        assertThatThrownBy(() -> following.follow(ALICE, "turn-404")).isInstanceOf(RefusalException.class);
    }
}
