package dev.baton.runtime.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Calls tools the way a turn does: through the core's executor, as a given user, with an agent allowed them all. */
final class ToolCalls {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolCalls() {}

    static ToolCallOutcome call(ToolSource source, Principal caller, String tool, String argumentsJson) {
        List<String> names =
                source.tools().stream().map(t -> t.definition().name()).toList();
        AgentDefinition agent = new AgentDefinition(
                "agent",
                "Agent",
                null,
                "You help.",
                "simulator:default",
                names,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        ToolCallScope scope = new ToolCallScope(agent, caller, "session-1", Duration.ofSeconds(5), new Cancellation());
        return new ToolExecutor(new ToolCatalog(List.of(source)), Clock.systemUTC())
                .execute(List.of(new ToolCallRequest("call-1", tool, argumentsJson)), scope, new CallCache())
                .getFirst();
    }

    static Principal user(String userId, String... permissions) {
        return new Principal(userId, "acme", null, null, Set.of("user"), Set.of(permissions), List.of());
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
