package dev.baton.server.metrics;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.session.SessionEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code baton_sessions_started_total} by {@code agent}: conversations started, for capacity planning and for the
 * cost per conversation ({@code baton_model_cost_usd_total} over it).
 */
public final class SessionMeters implements SessionEvents {
    private final io.micrometer.core.instrument.Meter.MeterProvider<Counter> started;

    public SessionMeters(MeterRegistry registry) {
        this.started = Counter.builder("baton.sessions.started")
                .description("Sessions (conversations) started, by agent")
                .withRegistry(registry);
    }

    @Override
    public void started(Session session, Principal principal) {
        started.withTags("agent", session.agentId()).increment();
    }
}
