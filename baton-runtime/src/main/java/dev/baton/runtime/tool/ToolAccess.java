package dev.baton.runtime.tool;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.session.Sessions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tools a caller may use, and a call of one outside any turn: what {@code GET /v1/tools} lists and what Baton's own
 * MCP endpoint serves. A tool is the caller's when an agent they may use admits it and they hold its permissions;
 * a call runs through the same {@link ToolExecutor} as a turn's (schema, permissions, timeout, the source's breaker)
 * and is written to the session's {@code tool_calls} like one, as the caller — never as anyone the client names.
 */
public final class ToolAccess {

    /**
     * A tool the caller may use, with the first of their agents that admits it (its allow-list and limits apply).
     *
     * @param source the name of the tool's source ("tasks", "mcp:memory")
     */
    public record Permitted(AgentDefinition agent, Tool tool, String source) {
        public Permitted {
            Objects.requireNonNull(agent, "agent");
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(source, "source");
        }
    }

    private final AgentRegistry agents;
    private final ToolCatalog catalog;
    private final ToolExecutor executor;
    private final Sessions sessions;
    private final ConversationStore store;

    public ToolAccess(
            AgentRegistry agents,
            ToolCatalog catalog,
            ToolExecutor executor,
            Sessions sessions,
            ConversationStore store) {
        this.agents = Objects.requireNonNull(agents, "agents");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * The caller's tools, in agent order and then allow-list order, each once.
     *
     * @param agentId only this agent's tools; null for every agent the caller may use
     * @throws RefusalException {@link Refusal.NotFound} when the named agent does not exist or is not the caller's
     */
    public List<Permitted> visibleTo(Principal caller, String agentId) {
        List<AgentDefinition> usable = agentId == null
                ? agents.usableBy(caller)
                : List.of(agents.usableBy(agentId, caller).orElseThrow(() -> RefusalException.notFound("agent")));
        Map<String, Permitted> visible = new LinkedHashMap<>();
        for (AgentDefinition agent : usable) {
            for (Tool tool : catalog.visibleTo(agent)) {
                String name = tool.definition().name();
                if (visible.containsKey(name) || !tool.definition().usableBy(caller)) continue;
                visible.put(
                        name, new Permitted(agent, tool, catalog.sourceOf(name).orElse("unknown")));
            }
        }
        return List.copyOf(new ArrayList<>(visible.values()));
    }

    /**
     * Runs one tool call as the caller in their session and records it there (a row of {@code tool_calls} that belongs
     * to no message). A tool the caller may not use comes back as the executor reports it (unknown tool, permission
     * denied), never as an exception.
     *
     * @param agentId only this agent's tools; null for every agent the caller may use
     * @param cancellation cancelling it interrupts the tool
     * @throws RefusalException {@link Refusal.NotFound} when the session is not the caller's,
     *     {@link Refusal.SessionCompleted} when it has ended
     */
    public ToolCallOutcome call(
            Principal caller,
            String sessionId,
            String agentId,
            String toolName,
            String argumentsJson,
            Cancellation cancellation) {
        Session session = sessions.get(caller, sessionId);
        Sessions.requireActive(session);
        AgentDefinition agent = visibleTo(caller, agentId).stream()
                .filter(p -> p.tool().definition().name().equals(toolName))
                .map(Permitted::agent)
                .findFirst()
                .orElseGet(() -> agents.find(session.agentId()).orElseThrow(() -> RefusalException.notFound("agent")));
        ToolCallRequest request = new ToolCallRequest("call_" + Ids.newId(), toolName, argumentsJson);
        ToolCallScope scope =
                new ToolCallScope(agent, caller, session.id(), agent.limits().toolTimeout(), cancellation);
        ToolCallOutcome outcome =
                executor.execute(List.of(request), scope, new CallCache()).getFirst();
        store.recordToolCalls(caller.userId(), List.of(outcome.toRecord(Ids.newId(), session.id(), null)));
        return outcome;
    }
}
