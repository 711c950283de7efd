package dev.baton.server.api.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.config.Durations;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Experiments for callers with {@code admin:experiments} (every rule is {@link Experiments}'):
 *
 * <ul>
 *   <li>{@code GET /v1/admin/experiments}: every experiment with its weights;
 *   <li>{@code POST /v1/admin/experiments} with {@code {"id", "baseAgent", "arms", ...}} (the definition as in
 *       baton.yaml): 201 with the experiment;
 *   <li>{@code GET /v1/admin/experiments/{id}[?window=1h]}: the arms' metrics side by side, what breaks a trigger,
 *       the audit trail;
 *   <li>{@code PATCH /v1/admin/experiments/{id}} with {@code {"weights": {"agent": 50, "classic": 50}, "reason"?}}:
 *       a staged rollout step, audited;
 *   <li>{@code POST /v1/admin/experiments/{id}/arms/{arm}/evals} with {@code {"suite", "scenarios", "passed"}}: attaches
 *       an eval run's pass rate to an arm (201).
 * </ul>
 */
public final class ExperimentRoutes {
    private final Experiments experiments;
    private final int maxBodyBytes;

    public ExperimentRoutes(Experiments experiments, int maxBodyBytes) {
        this.experiments = experiments;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/experiments", this::list);
        routes.post("/v1/admin/experiments", this::create);
        routes.get("/v1/admin/experiments/{id}", this::report);
        routes.patch("/v1/admin/experiments/{id}", this::weights);
        routes.post("/v1/admin/experiments/{id}/arms/{arm}/evals", this::evalRun);
    }

    private void list(Context ctx) {
        Principal admin = Caller.with(ctx, Experiments.ADMIN);
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("experiments");
        for (Experiment e : experiments.list(admin)) list.add(ExperimentViews.experiment(e));
        ctx.json(body);
    }

    private void create(Context ctx) {
        Principal admin = Caller.with(ctx, Experiments.ADMIN);
        ObjectNode request =
                (ObjectNode) RequestBody.jsonObject(ctx, maxBodyBytes).deepCopy();
        JsonNode id = request.remove("id");
        if (id == null || !id.isTextual()) throw RefusalException.invalidInput("field 'id' is required");
        Experiment created = experiments.create(admin, id.asText(), request);
        ctx.status(201).json(ExperimentViews.experiment(created));
    }

    private void report(Context ctx) {
        Principal admin = Caller.with(ctx, Experiments.ADMIN);
        String window = ctx.queryParam("window");
        Duration span = null;
        if (window != null) {
            try {
                span = Durations.parse(window, "window");
            } catch (IllegalArgumentException e) {
                throw RefusalException.invalidInput("window must be a duration such as 15m or 1h");
            }
            if (span.isZero() || span.isNegative()) throw RefusalException.invalidInput("window must be > 0");
        }
        ctx.json(ExperimentViews.report(experiments.report(admin, ctx.pathParam("id"), span)));
    }

    private void weights(Context ctx) {
        Principal admin = Caller.with(ctx, Experiments.ADMIN);
        JsonNode request = RequestBody.jsonObject(ctx, maxBodyBytes);
        JsonNode weights = request.path("weights");
        if (!weights.isObject() || weights.isEmpty())
            throw RefusalException.invalidInput("field 'weights' must map arm names to whole numbers");
        Map<String, Integer> asked = new LinkedHashMap<>();
        for (var it = weights.fields(); it.hasNext(); ) {
            var w = it.next();
            if (!w.getValue().isIntegralNumber() || !w.getValue().canConvertToInt())
                throw RefusalException.invalidInput("weights." + w.getKey() + " must be a whole number");
            asked.put(w.getKey(), w.getValue().intValue());
        }
        JsonNode reason = request.path("reason");
        Experiment changed =
                experiments.setWeights(admin, ctx.pathParam("id"), asked, reason.isTextual() ? reason.asText() : null);
        ctx.json(ExperimentViews.experiment(changed));
    }

    private void evalRun(Context ctx) {
        Principal admin = Caller.with(ctx, Experiments.ADMIN);
        JsonNode request = RequestBody.jsonObject(ctx, maxBodyBytes);
        JsonNode scenarios = request.path("scenarios");
        JsonNode passed = request.path("passed");
        if (!scenarios.canConvertToInt() || !scenarios.isIntegralNumber())
            throw RefusalException.invalidInput("field 'scenarios' must be a whole number");
        if (!passed.canConvertToInt() || !passed.isIntegralNumber())
            throw RefusalException.invalidInput("field 'passed' must be a whole number");
        JsonNode suite = request.path("suite");
        var run = experiments.recordEvalRun(
                admin,
                ctx.pathParam("id"),
                ctx.pathParam("arm"),
                suite.isTextual() ? suite.asText() : null,
                scenarios.intValue(),
                passed.intValue());
        ctx.status(201).json(ExperimentViews.evalRun(run));
    }
}
