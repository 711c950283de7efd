package dev.baton.runtime.session;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.assignment.Assignments;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sessions from start to end (DESIGN §3, §8): a session starts explicitly under the configuration the cascade
 * resolves for it, and is completed by its user, by the turn that uses its last allowed message, once it outlives
 * its maximum duration, or by the background sweep after its inactivity timeout. Every start and every end is
 * reported to {@link SessionEvents} exactly once, after it is committed. Time comes from the injected clock.
 */
public final class SessionLifecycle {
    private static final Logger log = LoggerFactory.getLogger(SessionLifecycle.class);

    private final SessionLifecycleStore store;
    private final StartedTerms terms;
    private final ConfigCascade cascade;
    private final Assignments assignments;
    private final SessionEvents events;
    private final Clock clock;
    private final Duration shortestInactivityTimeout;

    /**
     * @param shortestInactivityTimeout the shortest inactivity timeout any session can have (see
     *     {@link ConfigCascade#shortestInactivityTimeout}); bounds what the sweep reads
     */
    public SessionLifecycle(
            SessionLifecycleStore store,
            ConfigCascade cascade,
            Assignments assignments,
            SessionEvents events,
            Clock clock,
            Duration shortestInactivityTimeout) {
        this.store = Objects.requireNonNull(store, "store");
        this.terms = new StartedTerms(store);
        this.cascade = Objects.requireNonNull(cascade, "cascade");
        this.assignments = Objects.requireNonNull(assignments, "assignments");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.shortestInactivityTimeout = Objects.requireNonNull(shortestInactivityTimeout, "shortestInactivityTimeout");
    }

    /** What a turn runs with: the agent under the session's limits, and the session's assignment (null if none). */
    public record TurnSetup(AgentDefinition agent, Assignment assignment, SessionConfig config) {
        public TurnSetup {
            Objects.requireNonNull(agent, "agent");
            Objects.requireNonNull(config, "config");
        }
    }

    /**
     * Starts a session and stores its effective configuration with it.
     *
     * @param assignment already checked to be open to the principal; null for none
     */
    public Session start(Principal principal, AgentDefinition agent, Assignment assignment) {
        SessionConfig config = cascade.resolve(agent, assignment);
        Instant now = clock.instant();
        Session session = Session.start(
                Ids.newId(),
                principal.tenantId(),
                principal.userId(),
                agent.id(),
                assignment == null ? null : assignment.id(),
                now);
        Duration maxDuration = config.session().maxSessionDuration();
        SessionTerms started = new SessionTerms(
                config.toJson(),
                config.session().maxMessages(),
                maxDuration == null ? null : now.plus(maxDuration),
                config.session().inactivityTimeout());
        store.start(session, started);
        terms.started(principal.userId(), session.id(), started);
        events.started(session, principal);
        return session;
    }

    /**
     * Before a turn in an active session: ends the session instead when it has outlived its maximum duration (409),
     * else gives what the turn runs with.
     *
     * @param agent the session's agent as configured now; its limits are replaced by the session's own
     * @throws RefusalException {@link Refusal.SessionCompleted} when the session's time ran out
     */
    public TurnSetup beforeTurn(Principal principal, Session session, AgentDefinition agent) {
        Assignment assignment = assignments.find(session.assignmentId()).orElse(null);
        Optional<SessionTerms> started = terms.of(principal.userId(), session.id());
        SessionConfig config = started.map(SessionTerms::configJson)
                .map(SessionConfig::fromJson)
                .orElseGet(() -> cascade.resolve(agent, assignment));
        Instant expiresAt = started.map(SessionTerms::expiresAt).orElse(null);
        if (expiresAt != null && !clock.instant().isBefore(expiresAt)) {
            store.completeIfExpired(principal.userId(), session.id(), clock.instant())
                    .ifPresent(this::fireEnded);
            throw new RefusalException(
                    new Refusal.SessionCompleted("this session reached its time limit; start a new one"));
        }
        return new TurnSetup(agent.withLimits(config.turn()), assignment, config);
    }

    /** After a turn: completes the session when that turn used its last allowed message. */
    public void afterTurn(Principal principal, Session session, TurnSetup setup) {
        if (setup.config().session().maxMessages() == null) return;
        store.completeIfMessagesReached(principal.userId(), session.id(), clock.instant())
                .ifPresent(this::fireEnded);
    }

    /** Completes the principal's session; empty when it was not active (or not theirs). */
    public Optional<Session> completeByUser(Principal principal, String sessionId) {
        Optional<EndedSession> ended =
                store.complete(principal.userId(), sessionId, clock.instant(), SessionLifecycleStore.USER);
        ended.ifPresent(this::fireEnded);
        return ended.map(EndedSession::session);
    }

    /**
     * One run of the background job: completes up to {@code batch} sessions idle past their inactivity timeout or
     * past their maximum duration, in one statement, and reports each.
     *
     * @return how many sessions it completed
     */
    public int sweep(int batch) {
        List<EndedSession> ended = store.sweep(clock.instant(), shortestInactivityTimeout, batch);
        ended.forEach(this::fireEnded);
        if (!ended.isEmpty()) log.info("session sweep completed {} sessions", ended.size());
        return ended.size();
    }

    private void fireEnded(EndedSession e) {
        log.debug("session {} completed: {}", e.session().id(), e.reason());
        events.ended(e.session(), EndReason.fromWire(e.reason()));
    }
}
