package dev.baton.core.hook;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import java.time.Instant;
import java.util.List;

/** Builds {@link HookContext}s from the runtime's own types. */
public final class HookContexts {
    private HookContexts() {}

    /**
     * The context for session:start or session:end (the pipeline sets the hook and time).
     *
     * @param requestId the request (or background job run) that started or ended the session
     * @param principal the signed-in user; null when no user is at hand (a background job ending an inactive
     *     session) — the user is then known by id only
     * @param assignment the session's assignment; null when it has none
     * @param endReason why the session ended ("completed", "max_messages", "max_duration", "inactivity"); null for
     *     session:start
     */
    public static HookContext forSession(
            String requestId,
            Principal principal,
            Session session,
            AgentDefinition agent,
            Assignment assignment,
            String endReason,
            Instant now) {
        HookContext.User user =
                principal == null ? new HookContext.User(session.userId(), null, null, null) : user(principal);
        return new HookContext(
                new HookContext.Request(requestId, Hook.SESSION_START, now),
                user,
                scope(session.tenantId(), assignment),
                agent(agent),
                new HookContext.SessionInfo(
                        session.id(),
                        session.state().wireName(),
                        session.startedAt(),
                        session.messageCount(),
                        endReason),
                HookContext.Conversation.EMPTY,
                null);
    }

    /** The context of a turn: the user message as sent, the recent history, no response yet. */
    public static HookContext forTurn(
            String requestId,
            Principal principal,
            Session session,
            AgentDefinition agent,
            Assignment assignment,
            List<HookContext.HistoryMessage> history,
            String currentMessage,
            Instant now) {
        return new HookContext(
                new HookContext.Request(requestId, Hook.ON_MESSAGE, now),
                user(principal),
                scope(principal.tenantId(), assignment),
                agent(agent),
                new HookContext.SessionInfo(
                        session.id(), session.state().wireName(), session.startedAt(), session.messageCount(), null),
                new HookContext.Conversation(history, currentMessage),
                null);
    }

    private static HookContext.User user(Principal p) {
        return new HookContext.User(p.userId(), p.displayName(), p.email(), p.roles());
    }

    private static HookContext.Scope scope(String tenantId, Assignment assignment) {
        return new HookContext.Scope(tenantId, assignment == null ? null : assignment.classId(), assignment);
    }

    /** The agent as modules see it. */
    public static HookContext.Agent agent(AgentDefinition a) {
        return new HookContext.Agent(a.id(), a.name(), a.constraints(), a.modules());
    }
}
