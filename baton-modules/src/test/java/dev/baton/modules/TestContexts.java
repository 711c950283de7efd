package dev.baton.modules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentConstraints;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.ModuleEntry;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Hook contexts for module tests. */
public final class TestContexts {

    public static final Instant NOW = Instant.parse("2025-03-01T10:15:30Z");

    private TestContexts() {}

    public static HookContext beforeAi(String message) {
        return of(Hook.BEFORE_AI, JsonNodeFactory.instance.objectNode(), List.of(), message, null);
    }

    public static HookContext afterAi(String message, String response) {
        return of(Hook.AFTER_AI, JsonNodeFactory.instance.objectNode(), List.of(), message, response);
    }

    /**
     * @param agentDefinition the agent as its file would say it, read as the agent loader does: its
     *     {@code constraints} and {@code modules}
     */
    public static HookContext of(
            Hook hook,
            JsonNode agentDefinition,
            List<HookContext.HistoryMessage> history,
            String message,
            String response) {
        return new HookContext(
                new HookContext.Request("req-1", hook, NOW),
                new HookContext.User("user-1", "Ada Lovelace", "ada@example.com", Set.of("student")),
                new HookContext.Scope("tenant-1", null, null),
                new HookContext.Agent(
                        "tutor",
                        "Math tutor",
                        AgentConstraints.from(agentDefinition.path("constraints")),
                        ModuleEntry.parseList(agentDefinition.path("modules"), "agent tutor")),
                new HookContext.SessionInfo("session-1", "active", NOW.minusSeconds(60), history.size(), null),
                new HookContext.Conversation(history, message),
                response);
    }
}
