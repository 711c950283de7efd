package dev.baton.tasks.rest;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.domain.rest.RestRequest;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.Routes;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.tool.TaskJson;
import java.util.Objects;

/**
 * {@code /v1/tasks}: the same {@link TaskService} the task tools call, so a user can do by hand exactly what the model
 * can do for them. The service checks permissions and ownership.
 */
public final class TaskRoutes implements RouteGroup {
    private final TaskService tasks;

    public TaskRoutes(TaskService tasks) {
        this.tasks = Objects.requireNonNull(tasks, "tasks");
    }

    @Override
    public void register(Routes routes) {
        routes.get("/v1/tasks", this::list);
        routes.post("/v1/tasks", this::create);
        routes.get("/v1/tasks/{id}", req -> RestResponse.ok(one(tasks.get(req.caller(), req.pathParam("id")))));
        routes.patch("/v1/tasks/{id}", this::update);
        routes.post(
                "/v1/tasks/{id}/complete",
                req -> RestResponse.ok(one(tasks.complete(req.caller(), req.pathParam("id")))));
        routes.delete("/v1/tasks/{id}", req -> {
            tasks.delete(req.caller(), req.pathParam("id"));
            return RestResponse.noContent();
        });
    }

    private RestResponse list(RestRequest req) {
        ObjectNode filter = JsonNodeFactory.instance.objectNode();
        req.queryParams().forEach(filter::put);
        return RestResponse.ok(TaskJson.toJson(tasks.list(req.caller(), TaskJson.parseFilter(filter))));
    }

    private RestResponse create(RestRequest req) {
        Task t = tasks.create(req.caller(), TaskJson.parseNewTask(req.body()));
        return RestResponse.created(one(t));
    }

    private RestResponse update(RestRequest req) {
        Task t = tasks.update(req.caller(), req.pathParam("id"), TaskJson.parseUpdate(req.body()));
        return RestResponse.ok(one(t));
    }

    private static ObjectNode one(Task t) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.set("task", TaskJson.toJson(t));
        return n;
    }
}
