package dev.baton.mcp.support;

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
import dev.baton.providers.resilience.BreakerSettings;
import dev.baton.providers.resilience.BreakerToolSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tool calls the way a turn makes them: the core's {@link ToolExecutor} (schema, permissions, timeout) over the
 * sources, each behind its circuit breaker with the tool-source defaults.
 */
public final class ToolCalls {
    private final ToolExecutor executor;
    private final ToolCatalog catalog;
    private final AgentDefinition agent;
    private final AtomicInteger ids = new AtomicInteger();
    public final List<BreakerToolSource> guarded;

    public ToolCalls(List<ToolSource> sources, List<String> allowList, Clock clock) {
        this.guarded = sources.stream()
                .map(s -> new BreakerToolSource(s, BreakerSettings.TOOL_DEFAULTS, clock))
                .toList();
        this.catalog = new ToolCatalog(List.copyOf(guarded));
        this.executor = new ToolExecutor(catalog, clock);
        this.agent = AgentDefinition.of("mcp-test", "You use tools.", "simulator:default", allowList);
    }

    public ToolCatalog catalog() {
        return catalog;
    }

    public AgentDefinition agent() {
        return agent;
    }

    public ToolCallOutcome call(Principal caller, String tool, String argumentsJson) {
        return call(caller, tool, argumentsJson, Duration.ofSeconds(10));
    }

    public ToolCallOutcome call(Principal caller, String tool, String argumentsJson, Duration timeout) {
        var request = new ToolCallRequest("call_" + ids.incrementAndGet(), tool, argumentsJson);
        var scope = new ToolCallScope(agent, caller, "session-1", timeout, new Cancellation());
        return executor.execute(List.of(request), scope, new CallCache()).getFirst();
    }

    /** The call {@code callId} of the turn {@code turnId}, as that turn's step (or its taking over) makes it. */
    public ToolCallOutcome callInTurn(
            Principal caller, String turnId, String callId, String tool, String argumentsJson) {
        var request = new ToolCallRequest(callId, tool, argumentsJson);
        var scope =
                new ToolCallScope(agent, caller, "session-1", Duration.ofSeconds(10), new Cancellation(), null, turnId);
        return executor.execute(List.of(request), scope, new CallCache()).getFirst();
    }

    /** The role of {@link #user}s: the tests' servers of shared data name it in {@code sharedWith}. */
    public static final String ROLE = "tester";

    public static Principal user(String id, String... permissions) {
        return new Principal(id, "acme", null, null, Set.of(ROLE), Set.of(permissions), List.of());
    }
}
