package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Liveness and readiness; both need no token. */
public final class HealthRoutes {

    private final BooleanSupplier databaseUp;
    private final String modelMode;
    private final Supplier<Map<String, String>> breakers;

    /** @param modelMode "simulator" or the real provider in use, reported by readiness */
    public HealthRoutes(BooleanSupplier databaseUp, String modelMode) {
        this(databaseUp, modelMode, Map::of);
    }

    /**
     * @param modelMode "simulator" or the default model, reported by readiness
     * @param breakers each model provider's circuit breaker state ({@code closed}, {@code open}, {@code half_open})
     */
    public HealthRoutes(BooleanSupplier databaseUp, String modelMode, Supplier<Map<String, String>> breakers) {
        this.databaseUp = databaseUp;
        this.modelMode = modelMode;
        this.breakers = breakers;
    }

    public void register(RoutesConfig routes) {
        routes.get("/healthz", ctx -> ctx.json(Json.MAPPER.createObjectNode().put("status", "ok")));
        routes.get("/readyz", ctx -> {
            boolean db = databaseUp.getAsBoolean();
            ObjectNode out = Json.MAPPER.createObjectNode().put("status", db ? "ready" : "not_ready");
            ObjectNode checks =
                    out.putObject("checks").put("database", db ? "up" : "down").put("model", modelMode);
            // an open breaker is not "not ready": the instance still serves, and other models may answer
            ObjectNode providers = checks.putObject("providers");
            breakers.get().forEach(providers::put);
            ctx.status(db ? 200 : 503).json(out);
        });
    }
}
