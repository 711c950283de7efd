package dev.baton.spring.actuate;

import dev.baton.app.BatonApp;
import dev.baton.mcp.client.ServerStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Baton's part of the app's health ({@code /actuator/health}, component {@code baton}): DOWN when its database does not
 * answer within a second, as {@code baton serve}'s {@code /readyz}; with the model mode, each model provider's circuit
 * breaker and each MCP server's state as details (an open breaker or a disconnected MCP server does not make the app
 * DOWN: the instance still serves, and other models and tools may answer).
 */
public final class BatonHealthIndicator extends AbstractHealthIndicator {
    private static final Duration DATABASE_DEADLINE = Duration.ofSeconds(1);

    private final BatonApp app;

    public BatonHealthIndicator(BatonApp app) {
        super("Baton health check failed");
        this.app = app;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean db = app.database().isUp(DATABASE_DEADLINE);
        (db ? builder.up() : builder.down()).withDetail("database", db ? "up" : "down");
        builder.withDetail("model", app.modelMode());
        builder.withDetail("providers", app.models().breakerStates());
        Map<String, Object> mcp = new LinkedHashMap<>();
        for (ServerStatus s : app.mcp().status()) {
            mcp.put(
                    s.name(),
                    Map.of(
                            "state", s.state().name().toLowerCase(Locale.ROOT),
                            "since", s.since().toString(),
                            "tools", s.tools()));
        }
        if (!mcp.isEmpty()) builder.withDetail("mcp", mcp);
    }
}
