package dev.baton.server.api.learning;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.domain.ListingJson;
import dev.baton.learning.LearningModule;
import dev.baton.learning.tool.AgentJson;
import dev.baton.learning.tool.LearningJson;
import dev.baton.server.http.Caller;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Set;

/**
 * {@code /v1/learning/memory}, {@code …/progress} and {@code …/content-jobs}: what the learning agent remembers of
 * the caller, where they stand, and the material prepared for them (status, and the content once completed) — the
 * same services as its tools.
 */
public final class LearningAgentRoutes {
    private final LearningModule learning;
    private final int maxBodyBytes;

    public LearningAgentRoutes(LearningModule learning, int maxBodyBytes) {
        this.learning = learning;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get(
                "/v1/learning/memory",
                ctx -> ctx.json(AgentJson.memory(learning.memory().memory(Caller.of(ctx)))));
        routes.get(
                "/v1/learning/progress",
                ctx -> ctx.json(AgentJson.progress(learning.progress().progress(Caller.of(ctx)))));
        routes.get("/v1/learning/content-jobs", ctx -> ctx.json(jobs(ctx)));
        routes.get(
                "/v1/learning/content-jobs/{id}",
                ctx -> ctx.json(AgentJson.job(learning.content().get(Caller.of(ctx), ctx.pathParam("id")), true)));
        routes.post("/v1/learning/content-jobs", this::start);
    }

    private ObjectNode jobs(Context ctx) {
        return ListingJson.of("jobs", learning.content().list(Caller.of(ctx)), j -> AgentJson.job(j, false));
    }

    private void start(Context ctx) {
        var body = LearningJson.fields(RequestBody.jsonObject(ctx, maxBodyBytes), Set.of("topic"));
        var job = learning.content().start(Caller.of(ctx), body.text("topic"));
        ctx.status(202).json(AgentJson.job(job, false));
    }
}
