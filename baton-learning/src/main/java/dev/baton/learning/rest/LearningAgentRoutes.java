package dev.baton.learning.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.domain.ListingJson;
import dev.baton.domain.rest.RestRequest;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.Routes;
import dev.baton.learning.LearningModule;
import dev.baton.learning.tool.AgentJson;
import dev.baton.learning.tool.LearningJson;
import java.util.Set;

/**
 * {@code /v1/learning/memory}, {@code …/progress} and {@code …/content-jobs}: what the learning agent remembers of
 * the caller, where they stand, and the material prepared for them (status, and the content once completed) — the
 * same services as its tools.
 */
public final class LearningAgentRoutes implements RouteGroup {
    private final LearningModule learning;

    public LearningAgentRoutes(LearningModule learning) {
        this.learning = learning;
    }

    @Override
    public void register(Routes routes) {
        routes.get(
                "/v1/learning/memory",
                req -> RestResponse.ok(AgentJson.memory(learning.memory().memory(req.caller()))));
        routes.get(
                "/v1/learning/progress",
                req -> RestResponse.ok(AgentJson.progress(learning.progress().progress(req.caller()))));
        routes.get("/v1/learning/content-jobs", req -> RestResponse.ok(jobs(req)));
        routes.get(
                "/v1/learning/content-jobs/{id}",
                req -> RestResponse.ok(AgentJson.job(learning.content().get(req.caller(), req.pathParam("id")), true)));
        routes.post("/v1/learning/content-jobs", this::start);
    }

    private ObjectNode jobs(RestRequest req) {
        return ListingJson.of("jobs", learning.content().list(req.caller()), j -> AgentJson.job(j, false));
    }

    private RestResponse start(RestRequest req) {
        var body = LearningJson.fields(req.body(), Set.of("topic"));
        var job = learning.content().start(req.caller(), body.text("topic"));
        return RestResponse.accepted(AgentJson.job(job, false));
    }
}
