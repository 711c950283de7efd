package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import java.util.function.BooleanSupplier;

/** Liveness and readiness; both need no token. */
public final class HealthRoutes {
    /**
     * How long readiness waits for the database before it reports it down: /readyz answers within about this long
     * whatever the database does.
     */
    public static final java.time.Duration DEADLINE = java.time.Duration.ofSeconds(1);

    private final BooleanSupplier databaseUp;
    private final String modelMode;

    /** @param modelMode "simulator" or the real provider in use, reported by readiness */
    public HealthRoutes(BooleanSupplier databaseUp, String modelMode) {
        this.databaseUp = databaseUp;
        this.modelMode = modelMode;
    }

    public void register(RoutesConfig routes) {
        routes.get("/healthz", ctx -> ctx.json(Json.MAPPER.createObjectNode().put("status", "ok")));
        routes.get("/readyz", ctx -> {
            boolean db = databaseUp.getAsBoolean();
            ObjectNode out = Json.MAPPER.createObjectNode().put("status", db ? "ready" : "not_ready");
            out.putObject("checks").put("database", db ? "up" : "down").put("model", modelMode);
            ctx.status(db ? 200 : 503).json(out);
        });
    }
}
