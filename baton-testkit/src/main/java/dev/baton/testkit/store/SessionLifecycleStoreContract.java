package dev.baton.testkit.store;

import static dev.baton.testkit.store.ConversationFixtures.assistantMessage;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.turn;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.id.Ids;
import dev.baton.runtime.session.EndedSession;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.SessionTerms;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link SessionLifecycleStore} must do, whatever keeps the sessions: run by baton-store-jdbc against
 * SQLite and PostgreSQL and by baton-testkit against {@code SessionLifecycleStore.inMemory}. Terms are kept with the
 * session and read by its owner only; each completion (by the user, the message limit, the maximum duration, the
 * sweep) ends a session once, even when two instances race.
 *
 * <p>Subclasses give the stores under test, which may be shared by all tests of the class: each test uses fresh users
 * and its own instants far apart from the others', so sweeps of one test never reach another's sessions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SessionLifecycleStoreContract {
    private static final Duration DAY = Duration.ofHours(24);

    /** The conversation store the sessions are kept in; the tests append messages through it. */
    protected abstract ConversationStore conversations();

    /** The lifecycle store under test, over {@link #conversations()}. */
    protected abstract SessionLifecycleStore lifecycle();

    /** A second lifecycle store over the same sessions, as another instance holds one (concurrent sweeps). */
    protected abstract SessionLifecycleStore anotherInstance();

    private Session start(String user, Instant at, SessionTerms terms) {
        Session s = Session.start(Ids.newId(), "tenant-1", user, "study", null, at);
        lifecycle().start(s, terms);
        return s;
    }

    private static SessionTerms idleAfter(Duration d) {
        return new SessionTerms("{\"x\":1}", null, null, d);
    }

    @Test
    void terms_are_stored_with_the_session_and_only_its_owner_reads_them() {
        String user = newUser();
        Instant t = Instant.parse("2030-01-01T00:00:00Z");
        Session s = start(user, t, new SessionTerms("{\"limits\":{}}", 3, t.plus(DAY), Duration.ofMinutes(30)));

        assertThat(lifecycle().terms(user, s.id()))
                .contains(new SessionTerms("{\"limits\":{}}", 3, t.plus(DAY), Duration.ofMinutes(30)));
        assertThat(lifecycle().terms(newUser(), s.id())).isEmpty();
    }

    @Test
    void completing_ends_an_active_session_once() {
        String user = newUser();
        Instant t = Instant.parse("2030-02-01T00:00:00Z");
        Session s = start(user, t, idleAfter(DAY));

        assertThat(lifecycle().complete(newUser(), s.id(), t, SessionLifecycleStore.USER))
                .isEmpty();
        var ended = lifecycle().complete(user, s.id(), t.plusSeconds(5), SessionLifecycleStore.USER);
        assertThat(ended).hasValueSatisfying(e -> {
            assertThat(e.reason()).isEqualTo("user");
            assertThat(e.session().state()).isEqualTo(SessionState.COMPLETED);
            assertThat(e.session().endedAt()).isEqualTo(t.plusSeconds(5));
        });
        assertThat(lifecycle().complete(user, s.id(), t.plusSeconds(9), SessionLifecycleStore.USER))
                .isEmpty();
    }

    @Test
    void the_message_limit_completes_a_session_when_reached_and_not_before() {
        String user = newUser();
        Instant t = Instant.parse("2030-03-01T00:00:00Z");
        Session s = start(user, t, new SessionTerms(null, 2, null, DAY));
        conversations().appendUserMessage(userMessage(s, "one", t));
        conversations().completeTurn(user, turn(assistantMessage(s, "answer one", t), List.of(), List.of()));
        assertThat(lifecycle().completeIfMessagesReached(user, s.id(), t)).isEmpty();

        conversations().appendUserMessage(userMessage(s, "two", t.plusSeconds(1)));
        assertThat(lifecycle().completeIfMessagesReached(user, s.id(), t.plusSeconds(2)))
                .hasValueSatisfying(e -> assertThat(e.reason()).isEqualTo("max_messages"));
    }

    @Test
    void an_expired_session_completes_and_one_within_its_duration_does_not() {
        String user = newUser();
        Instant t = Instant.parse("2030-04-01T00:00:00Z");
        Session s = start(user, t, new SessionTerms(null, null, t.plus(Duration.ofHours(1)), DAY));

        assertThat(lifecycle().completeIfExpired(user, s.id(), t.plus(Duration.ofMinutes(59))))
                .isEmpty();
        assertThat(lifecycle().completeIfExpired(user, s.id(), t.plus(Duration.ofHours(1))))
                .hasValueSatisfying(e -> assertThat(e.reason()).isEqualTo("max_session_duration"));
    }

    @Test
    void the_sweep_completes_sessions_idle_past_their_own_timeout_and_expired_ones() {
        Instant t = Instant.parse("2030-05-01T00:00:00Z");
        Session shortIdle = start(newUser(), t, idleAfter(Duration.ofMinutes(10)));
        Session longIdle = start(newUser(), t, idleAfter(Duration.ofHours(2)));
        Session expired = start(newUser(), t, new SessionTerms(null, null, t.plus(Duration.ofMinutes(20)), DAY));
        Session busy = start(newUser(), t, idleAfter(Duration.ofMinutes(10)));
        conversations().appendUserMessage(userMessage(busy, "still here", t.plus(Duration.ofMinutes(25))));

        // other tests' sessions (earlier instants) may be swept too: look at this test's own
        Set<String> mine = Set.of(shortIdle.id(), longIdle.id(), expired.id(), busy.id());
        List<EndedSession> ended =
                lifecycle().sweep(t.plus(Duration.ofMinutes(30)), Duration.ofMinutes(10), 100).stream()
                        .filter(e -> mine.contains(e.session().id()))
                        .toList();

        assertThat(ended)
                .extracting(e -> e.session().id(), EndedSession::reason)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(shortIdle.id(), "inactivity"),
                        org.assertj.core.groups.Tuple.tuple(expired.id(), "max_session_duration"));
        assertThat(ended).allSatisfy(e -> assertThat(e.session().state()).isEqualTo(SessionState.COMPLETED));
        // a second run finds nothing more; the long-timeout and the busy session stay active
        assertThat(lifecycle().sweep(t.plus(Duration.ofMinutes(30)), Duration.ofMinutes(10), 100))
                .isEmpty();
        assertThat(conversations()
                        .findSession(longIdle.userId(), longIdle.id())
                        .orElseThrow()
                        .isActive())
                .isTrue();
        assertThat(conversations()
                        .findSession(busy.userId(), busy.id())
                        .orElseThrow()
                        .isActive())
                .isTrue();
    }

    @Test
    void a_sweep_takes_at_most_its_batch_and_concurrent_sweeps_end_each_session_once() throws Exception {
        // before every other test's instants, so only this test's sessions are idle yet
        Instant t = Instant.parse("2029-06-01T00:00:00Z");
        for (int i = 0; i < 12; i++) start(newUser(), t, idleAfter(Duration.ofMinutes(1)));
        Instant later = t.plus(Duration.ofMinutes(5));

        assertThat(lifecycle().sweep(later, Duration.ofMinutes(1), 5)).hasSize(5);

        SessionLifecycleStore other = anotherInstance();
        Callable<List<EndedSession>> a = () -> lifecycle().sweep(later, Duration.ofMinutes(1), 100);
        Callable<List<EndedSession>> b = () -> other.sweep(later, Duration.ofMinutes(1), 100);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Future<List<EndedSession>> fa = pool.submit(a);
            Future<List<EndedSession>> fb = pool.submit(b);
            List<String> ids = new java.util.ArrayList<>();
            fa.get().forEach(e -> ids.add(e.session().id()));
            fb.get().forEach(e -> ids.add(e.session().id()));
            assertThat(ids).hasSize(7).doesNotHaveDuplicates();
        }
    }

    @Test
    void a_session_that_is_not_the_users_is_neither_expired_nor_limited_by_them() {
        String user = newUser();
        String intruder = newUser();
        Instant t = Instant.parse("2030-08-01T00:00:00Z");
        Session s = start(user, t, new SessionTerms(null, 1, t.plusSeconds(60), DAY));
        conversations().appendUserMessage(userMessage(s, "one", t));

        assertThat(lifecycle().completeIfExpired(intruder, s.id(), t.plusSeconds(120)))
                .isEmpty();
        assertThat(lifecycle().completeIfMessagesReached(intruder, s.id(), t.plusSeconds(120)))
                .isEmpty();
        assertThat(conversations().findSession(user, s.id()).orElseThrow().isActive())
                .isTrue();
        assertThat(lifecycle().completeIfMessagesReached(user, s.id(), t.plusSeconds(120)))
                .hasValueSatisfying(e -> {
                    assertThat(e.reason()).isEqualTo("max_messages");
                    assertThat(e.session().id()).isEqualTo(s.id());
                });
        // one end per session: the expiry that also ran out does not end it a second time
        assertThat(lifecycle().completeIfExpired(user, s.id(), t.plusSeconds(120)))
                .isEmpty();
    }

    @Test
    void a_completed_session_is_seen_completed_through_the_conversation_store() {
        String user = newUser();
        Instant t = Instant.parse("2030-09-01T00:00:00Z");
        Session s = start(user, t, idleAfter(DAY));

        lifecycle().complete(user, s.id(), t.plusSeconds(3), SessionLifecycleStore.USER);

        Session found = conversations().findSession(user, s.id()).orElseThrow();
        assertThat(found.state()).isEqualTo(SessionState.COMPLETED);
        assertThat(found.endedAt()).isEqualTo(t.plusSeconds(3));
        assertThat(found.endReason()).isEqualTo("user");
    }
}
