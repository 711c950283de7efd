package dev.baton.runtime.session;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.hook.HookContexts;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.id.Ids;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.assignment.Assignments;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.MDC;

/**
 * Hands the lifecycle's start and end moments to the modules' {@code session:start} and {@code session:end}
 * hooks. Both run asynchronously in the pipeline, so starting or ending a session never waits for a module.
 */
public final class ModuleSessionEvents implements SessionEvents {

    private final ModulePipeline modules;
    private final AgentRegistry agents;
    private final Assignments assignments;
    private final Clock clock;

    public ModuleSessionEvents(ModulePipeline modules, AgentRegistry agents, Assignments assignments, Clock clock) {
        this.modules = modules;
        this.agents = agents;
        this.assignments = assignments;
        this.clock = clock;
    }

    @Override
    public void started(Session session, Principal principal) {
        agents.find(session.agentId())
                .ifPresent(agent -> modules.sessionStarted(HookContexts.forSession(
                        requestId(), principal, session, agent, assignmentOf(session), null, clock.instant())));
    }

    @Override
    public void ended(Session session, EndReason reason) {
        Optional<AgentDefinition> agent = agents.find(session.agentId());
        // the sweep ends sessions without a caller: the principal is unknown there, the user id is on the session
        agent.ifPresent(a -> modules.sessionEnded(HookContexts.forSession(
                requestId(), null, session, a, assignmentOf(session), reason.wireName(), clock.instant())));
    }

    private Assignment assignmentOf(Session session) {
        return session.assignmentId() == null
                ? null
                : assignments.find(session.assignmentId()).orElse(null);
    }

    /** The HTTP request's id when a request caused the event; a fresh one for the background sweep. */
    private static String requestId() {
        String id = MDC.get("requestId");
        return id != null ? id : Ids.newId();
    }
}
