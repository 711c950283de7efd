package dev.baton.core.hook;

import dev.baton.core.agent.AgentConstraints;
import dev.baton.core.agent.Assignment;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a module needs to decide, without another database query. Immutable: the pipeline hands each module
 * a copy that reflects what earlier modules changed (the user message for before_ai, the answer for after_ai).
 *
 * @param request this call: request id, hook, time
 * @param user who is talking
 * @param scope tenant, class and assignment
 * @param agent the agent answering
 * @param session the session
 * @param conversation the recent history and the current user message
 * @param response the answer so far, for after_ai (as earlier modules left it); null for the other hooks
 */
public record HookContext(
        Request request,
        User user,
        Scope scope,
        Agent agent,
        SessionInfo session,
        Conversation conversation,
        String response) {

    public HookContext {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(session, "session");
        conversation = conversation == null ? Conversation.EMPTY : conversation;
    }

    /** @param requestId the id of the HTTP request (or job) that caused the call; appears in every log line */
    public record Request(String requestId, Hook hook, Instant timestamp) {
        public Request {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(hook, "hook");
            Objects.requireNonNull(timestamp, "timestamp");
        }
    }

    /**
     * @param name display name; null when the token has none
     * @param email null when the token has none
     * @param roles the token's roles (student, teacher, admin…); empty when unknown (a background job ending a
     *     session knows only the user id)
     */
    public record User(String id, String name, String email, Set<String> roles) {
        public User {
            Objects.requireNonNull(id, "id");
            roles = Set.copyOf(roles == null ? Set.of() : roles);
        }
    }

    /**
     * @param tenantId the organisation
     * @param classId the assignment's class; null without an assignment
     * @param assignment the session's assignment with its instructions and overrides; null when it has none
     */
    public record Scope(String tenantId, String classId, Assignment assignment) {
        public Scope {
            Objects.requireNonNull(tenantId, "tenantId");
        }

        public String assignmentId() {
            return assignment == null ? null : assignment.id();
        }
    }

    /**
     * The agent as modules see it.
     *
     * @param constraints its {@code constraints:} (the topic guard enforces them, a webhook is sent them)
     * @param modules its own {@code modules:} entries, which the {@link ModuleSource} resolves against the org
     *     defaults
     */
    public record Agent(String id, String name, AgentConstraints constraints, List<ModuleEntry> modules) {
        public Agent {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            constraints = constraints == null ? AgentConstraints.NONE : constraints;
            modules = List.copyOf(modules == null ? List.of() : modules);
        }

        /** An agent with these constraints and no modules of its own. */
        public Agent(String id, String name, AgentConstraints constraints) {
            this(id, name, constraints, List.of());
        }
    }

    /**
     * @param state "active" or "completed"
     * @param messageCount messages stored before this call
     * @param endReason why it ended, for session:end ("completed", "max_messages", "max_duration", "inactivity");
     *     null otherwise
     */
    public record SessionInfo(String id, String state, Instant startedAt, int messageCount, String endReason) {
        public SessionInfo {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(startedAt, "startedAt");
        }
    }

    /** One message of the history. @param role "user" or "assistant" */
    public record HistoryMessage(String role, String content, Instant createdAt) {
        public HistoryMessage {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
        }
    }

    /**
     * @param history recent messages, oldest first (the same bounded window the context is built from; blocked
     *     messages excluded)
     * @param currentMessage the user message of this turn as earlier modules left it; null for session hooks
     */
    public record Conversation(List<HistoryMessage> history, String currentMessage) {
        public static final Conversation EMPTY = new Conversation(List.of(), null);

        public Conversation {
            history = List.copyOf(history == null ? List.of() : history);
        }
    }

    /** This context for another hook, at another time. */
    public HookContext forHook(Hook hook, Instant at) {
        return new HookContext(
                new Request(request.requestId(), hook, at), user, scope, agent, session, conversation, response);
    }

    /** This context with the user message as a modifier left it. */
    public HookContext withCurrentMessage(String message) {
        return new HookContext(
                request, user, scope, agent, session, new Conversation(conversation.history(), message), response);
    }

    /** This context with the answer as a modifier left it. */
    public HookContext withResponse(String newResponse) {
        return new HookContext(request, user, scope, agent, session, conversation, newResponse);
    }
}
