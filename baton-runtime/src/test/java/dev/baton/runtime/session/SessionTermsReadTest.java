package dev.baton.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.OpenSessions;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.testing.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A session's terms never change once it started, so a turn reads them from the store only the first time this
 * instance sees the session, and never for another user.
 */
class SessionTermsReadTest {
    static final Principal ALICE = Principal.of("acme", "alice", Set.of());
    static final Principal BOB = Principal.of("acme", "bob", Set.of());

    final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T10:00:00Z"));
    final RecordingStore store = new RecordingStore();
    final ConfigCascade cascade = ConfigCascade.fromOrgLimits(ConfigCascadeTest.yaml("""
            maxSessionDuration: 1h
            """));
    final AgentDefinition agent = ConfigCascadeTest.agent("{}");

    SessionLifecycle lifecycle() {
        return new SessionLifecycle(
                store, cascade, Assignments.none(), SessionEvents.NONE, clock, Duration.ofMinutes(1));
    }

    @Test
    void a_session_started_here_runs_its_turns_without_reading_its_terms() {
        SessionLifecycle lifecycle = lifecycle();
        Session session = lifecycle.start(ALICE, agent, null);

        SessionLifecycle.TurnSetup first = lifecycle.beforeTurn(ALICE, session, agent);
        lifecycle.beforeTurn(ALICE, session, agent);

        assertThat(store.termsReads).isEmpty();
        assertThat(first.config().session().maxSessionDuration()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void a_session_started_elsewhere_is_read_once_and_its_stored_terms_apply() {
        Session session = lifecycle().start(ALICE, agent, null);
        // another instance: it did not start the session, and the org's limits changed since
        SessionLifecycle other = new SessionLifecycle(
                store,
                ConfigCascade.fromOrgLimits(ConfigCascadeTest.yaml("maxSessionDuration: 5h")),
                Assignments.none(),
                SessionEvents.NONE,
                clock,
                Duration.ofMinutes(1));

        SessionLifecycle.TurnSetup first = other.beforeTurn(ALICE, session, agent);
        SessionLifecycle.TurnSetup second = other.beforeTurn(ALICE, session, agent);

        assertThat(store.termsReads).containsExactly("alice:" + session.id());
        assertThat(first.config().session().maxSessionDuration()).isEqualTo(Duration.ofHours(1));
        assertThat(second.config().session().maxSessionDuration()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void kept_terms_are_never_served_to_another_user() {
        SessionLifecycle lifecycle = lifecycle();
        Session session = lifecycle.start(ALICE, agent, null);

        lifecycle.beforeTurn(BOB, session, agent);

        assertThat(store.termsReads).containsExactly("bob:" + session.id());
    }

    @Test
    void kept_terms_still_end_the_session_when_its_time_runs_out() {
        SessionLifecycle lifecycle = lifecycle();
        Session session = lifecycle.start(ALICE, agent, null);
        lifecycle.beforeTurn(ALICE, session, agent);

        clock.advance(Duration.ofHours(1));

        assertThatThrownBy(() -> lifecycle.beforeTurn(ALICE, session, agent))
                .isInstanceOf(RefusalException.class)
                .hasMessageContaining("time limit");
        assertThat(store.expiredChecks).containsExactly(session.id());
    }

    /** Sessions and their terms in maps, recording which terms were read. */
    static final class RecordingStore extends OpenSessions {
        final Map<String, Session> sessions = new HashMap<>();
        final Map<String, SessionTerms> terms = new HashMap<>();
        final List<String> termsReads = new ArrayList<>();
        final List<String> expiredChecks = new ArrayList<>();

        RecordingStore() {
            super(session -> {});
        }

        @Override
        public void start(Session session, SessionTerms t) {
            sessions.put(session.id(), session);
            terms.put(session.id(), t);
        }

        @Override
        public Optional<SessionTerms> terms(String userId, String sessionId) {
            termsReads.add(userId + ":" + sessionId);
            Session s = sessions.get(sessionId);
            return s != null && s.userId().equals(userId) ? Optional.of(terms.get(sessionId)) : Optional.empty();
        }

        @Override
        public Optional<EndedSession> completeIfExpired(String userId, String sessionId, Instant now) {
            expiredChecks.add(sessionId);
            return Optional.empty();
        }
    }
}
