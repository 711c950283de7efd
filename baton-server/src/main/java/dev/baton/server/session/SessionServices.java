package dev.baton.server.session;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.tool.ToolSource;
import dev.baton.server.agent.AgentRegistry;
import dev.baton.server.assignment.Assignments;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.session.tool.StandardToolSource;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcConversationSearch;
import dev.baton.store.jdbc.JdbcSessionLifecycle;
import java.time.Clock;
import java.time.Duration;

/**
 * The session side of one instance wired up from configuration: assignments ({@code assignments:}), the cascade's
 * org level ({@code limits:}), the lifecycle with its event bus, the standard tools and the inactivity sweep
 * ({@code lifecycle:}).
 */
public final class SessionServices implements AutoCloseable {
    private final Assignments assignments;
    private final SessionEventBus events;
    private final SessionLifecycle lifecycle;
    private final ToolSource tools;
    private final SessionSweeper.Settings sweepSettings;
    private SessionSweeper sweeper;

    private SessionServices(
            Assignments assignments,
            SessionEventBus events,
            SessionLifecycle lifecycle,
            ToolSource tools,
            SessionSweeper.Settings sweepSettings) {
        this.assignments = assignments;
        this.events = events;
        this.lifecycle = lifecycle;
        this.tools = tools;
        this.sweepSettings = sweepSettings;
    }

    public static SessionServices create(
            Database db, BatonConfig config, AgentRegistry agents, ConversationStore store, Clock clock) {
        Assignments assignments = Assignments.fromConfig(config.section("assignments"), agents);
        ConfigCascade cascade = ConfigCascade.fromOrgLimits(config.section("limits"));
        // validates every level now, so a bad limit fails at startup rather than when a session starts
        Duration shortest = cascade.shortestInactivityTimeout(agents.all(), assignments.all());
        SessionEventBus events = new SessionEventBus();
        SessionLifecycle lifecycle =
                new SessionLifecycle(new JdbcSessionLifecycle(db), cascade, assignments, events, clock, shortest);
        ToolSource tools =
                new StandardToolSource(store, assignments, new PriorSessions(new JdbcConversationSearch(db)));
        return new SessionServices(
                assignments, events, lifecycle, tools, SessionSweeper.Settings.from(config.section("lifecycle")));
    }

    /** Schedules the inactivity sweep (once). */
    public synchronized void startSweeper() {
        if (sweeper == null) sweeper = SessionSweeper.start(lifecycle, sweepSettings);
    }

    public Assignments assignments() {
        return assignments;
    }

    /** Where {@code session:start} and {@code session:end} listeners are added. */
    public SessionEventBus events() {
        return events;
    }

    public SessionLifecycle lifecycle() {
        return lifecycle;
    }

    /** {@code get_assignment_info} and {@code search_prior_sessions}. */
    public ToolSource toolSource() {
        return tools;
    }

    /** The configured batch of one sweep run. */
    public int sweepBatch() {
        return sweepSettings.sweepBatch();
    }

    @Override
    public synchronized void close() {
        if (sweeper != null) sweeper.close();
    }
}
