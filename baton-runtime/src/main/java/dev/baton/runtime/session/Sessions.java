package dev.baton.runtime.session;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.Routing;
import dev.baton.runtime.turn.RunningTurns;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A caller's sessions: start (with the agent and assignment checks), list, read, complete, cancel a running turn,
 * delete. Every call acts as the caller: another user's session, or the same user id in another tenant, is
 * indistinguishable from a session that does not exist ({@link Refusal.NotFound}).
 */
public final class Sessions {
    /** What reading one's sessions needs. */
    public static final String READ = "sessions:read:self";
    /** What starting, sending to, completing and deleting one's sessions needs. */
    public static final String WRITE = "sessions:write:self";

    private final ConversationStore store;
    private final AgentRegistry agents;
    private final Assignments assignments;
    private final SessionLifecycle lifecycle;
    private final RunningTurns running;
    private final Experiments experiments;
    private final Clock clock;

    public Sessions(
            ConversationStore store,
            AgentRegistry agents,
            Assignments assignments,
            SessionLifecycle lifecycle,
            RunningTurns running,
            Experiments experiments,
            Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.assignments = Objects.requireNonNull(assignments, "assignments");
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
        this.running = Objects.requireNonNull(running, "running");
        this.experiments = Objects.requireNonNull(experiments, "experiments");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Starts a session with an agent the caller may use. With an assignment (which must be open to the caller now)
     * the agent may be left out and is the assignment's. When an experiment is over the agent, the session starts with
     * the agent of the caller's arm (see {@link Experiments#route}).
     *
     * @param agentId null or blank to take the assignment's agent
     * @param assignmentId null for none
     * @throws RefusalException {@link Refusal.InvalidInput} with neither; {@link Refusal.NotFound} for an unknown
     *     agent or assignment; {@link Refusal.Forbidden} when the caller's role may not use the agent, or the
     *     assignment is for another class or not open; {@link Refusal.InvalidValue} when the assignment is done with
     *     another agent
     */
    public Session start(Principal caller, String agentId, String assignmentId) {
        require(caller, WRITE);
        Assignment assignment =
                assignmentId == null ? null : assignments.openFor(caller, assignmentId, clock.instant());
        if ((agentId == null || agentId.isBlank()) && assignment != null) agentId = assignment.agentId();
        if (agentId == null || agentId.isBlank()) throw RefusalException.invalidInput("field 'agentId' is required");
        AgentDefinition agent = agents.find(agentId).orElseThrow(() -> RefusalException.notFound("agent"));
        if (agents.usableBy(agent.id(), caller).isEmpty())
            throw RefusalException.forbidden("your role may not use this agent");
        if (assignment != null && !assignment.agentId().equals(agent.id()))
            throw new RefusalException(new Refusal.InvalidValue(
                    "assignment " + assignment.id() + " is done with agent " + assignment.agentId()));
        // an experiment over the agent may send the session to one of its arms' agents; the session keeps that agent
        Routing routing = experiments.route(caller, agent);
        Session session = lifecycle.start(caller, routing.agent(), assignment);
        experiments.started(session, routing);
        return session;
    }

    /** Starts a session with the caller's default agent (see {@link AgentRegistry#defaultFor}). */
    public Session startWithDefaultAgent(Principal caller) {
        return start(caller, agents.defaultFor(caller).id(), null);
    }

    /**
     * The caller's newest active session with {@code agentId} (with the agent of the caller's arm, when an experiment
     * is over it), to continue where they left off; empty when there is none.
     */
    public Optional<Session> resume(Principal caller, String agentId) {
        require(caller, READ);
        // under an experiment the caller's sessions of this agent carry their arm's agent
        String routed = agents.find(agentId)
                .map(agent -> experiments.route(caller, agent).agent().id())
                .orElse(agentId);
        return list(caller, new SessionQuery(routed, SessionState.ACTIVE, 1, null)).sessions().stream()
                .findFirst();
    }

    /**
     * One page of the caller's sessions, newest first.
     *
     * @throws RefusalException {@link Refusal.InvalidInput} for a cursor this runtime did not issue
     */
    public SessionPage list(Principal caller, SessionQuery query) {
        require(caller, READ);
        SessionPage page;
        try {
            page = store.listSessions(caller.userId(), query);
        } catch (IllegalArgumentException e) {
            // the store refuses a cursor it did not issue; anything else it refuses is a bug
            if (query.cursor() == null) throw e;
            throw RefusalException.invalidInput("cursor is not one this server issued; use nextCursor as given");
        }
        // the same subject in another tenant is another user (a page may come out shorter; its cursor still holds)
        List<Session> own = page.sessions().stream()
                .filter(s -> s.tenantId().equals(caller.tenantId()))
                .toList();
        return new SessionPage(own, page.nextCursor());
    }

    /** The caller's session, if it exists and is theirs. */
    public Optional<Session> find(Principal caller, String sessionId) {
        return store.findSession(caller.userId(), sessionId)
                .filter(s -> s.tenantId().equals(caller.tenantId()));
    }

    /**
     * The caller's session.
     *
     * @throws RefusalException {@link Refusal.NotFound} when it does not exist or is not theirs
     */
    public Session get(Principal caller, String sessionId) {
        require(caller, READ);
        return owned(caller, sessionId);
    }

    /** A page of a session's messages with each assistant message's tool calls. */
    public record MessagePage(List<Message> messages, Map<String, List<ToolCallRecord>> toolCallsByMessage) {
        public MessagePage {
            messages = List.copyOf(messages);
            toolCallsByMessage = Map.copyOf(toolCallsByMessage);
        }

        /** The tool calls the assistant message made (empty for other messages). */
        public List<ToolCallRecord> toolCallsOf(Message m) {
            return toolCallsByMessage.getOrDefault(m.id(), List.of());
        }
    }

    /**
     * Up to {@code limit} messages of the caller's session before {@code beforeSeq} (null: the newest), oldest
     * first, with their tool calls (one query for the page's tool calls, never one per message).
     */
    public MessagePage messages(Principal caller, String sessionId, Long beforeSeq, int limit) {
        require(caller, READ);
        Session s = owned(caller, sessionId);
        List<Message> msgs = store.listMessages(caller.userId(), s.id(), beforeSeq, limit);
        List<String> assistantIds = msgs.stream()
                .filter(m -> m.role() == MessageRole.ASSISTANT)
                .map(Message::id)
                .toList();
        Map<String, List<ToolCallRecord>> calls = assistantIds.isEmpty()
                ? Map.of()
                : store.toolCallsOf(caller.userId(), s.id(), assistantIds).stream()
                        .filter(c -> c.messageId() != null)
                        .collect(Collectors.groupingBy(ToolCallRecord::messageId));
        return new MessagePage(msgs, calls);
    }

    /**
     * Completes the caller's active session.
     *
     * @throws RefusalException {@link Refusal.NotFound}; {@link Refusal.SessionCompleted} when it already is
     */
    public Session complete(Principal caller, String sessionId) {
        require(caller, WRITE);
        Session s = owned(caller, sessionId);
        if (!s.isActive()) throw completed();
        return lifecycle.completeByUser(caller, s.id()).orElseThrow(Sessions::completed);
    }

    /** Cancels the session's running turn on whichever instance runs it; false when none runs. */
    public boolean cancel(Principal caller, String sessionId) {
        require(caller, WRITE);
        return running.cancel(owned(caller, sessionId).id());
    }

    /** Deletes the caller's session and its messages (its audit records and usage stay); a running turn is cancelled. */
    public void delete(Principal caller, String sessionId) {
        require(caller, WRITE);
        Session s = owned(caller, sessionId);
        running.cancel(s.id());
        if (!store.deleteSession(caller.userId(), s.id())) throw RefusalException.notFound("session");
    }

    Session owned(Principal caller, String sessionId) {
        return find(caller, sessionId).orElseThrow(() -> RefusalException.notFound("session"));
    }

    /**
     * What a turn in the caller's session runs with, once the session may take one: it is active, its agent is still
     * configured, and its time has not run out (see {@link SessionLifecycle#beforeTurn}).
     *
     * @throws RefusalException {@link Refusal.SessionCompleted}, then {@link Refusal.AgentUnavailable}, then
     *     {@link Refusal.SessionCompleted} when the session's time ran out
     */
    public SessionLifecycle.TurnSetup beforeTurn(Principal caller, Session session) {
        requireActive(session);
        AgentDefinition configured = agents.find(session.agentId())
                .orElseThrow(() -> new RefusalException(
                        new Refusal.AgentUnavailable("this session's agent is no longer configured")));
        return lifecycle.beforeTurn(caller, session, configured);
    }

    /**
     * @throws RefusalException {@link Refusal.SessionCompleted} when the session has ended
     */
    public static void requireActive(Session session) {
        if (!session.isActive())
            throw new RefusalException(new Refusal.SessionCompleted("this session is completed; start a new one"));
    }

    /** Starts, checks and completes sessions under their resolved configuration. */
    public SessionLifecycle lifecycle() {
        return lifecycle;
    }

    private static RefusalException completed() {
        return new RefusalException(new Refusal.SessionCompleted("session is already completed"));
    }

    /**
     * @throws RefusalException {@link Refusal.Forbidden} when the caller lacks {@code permission}
     */
    public static void require(Principal caller, String permission) {
        if (!caller.hasPermission(permission)) throw RefusalException.forbidden("missing permission " + permission);
    }
}
