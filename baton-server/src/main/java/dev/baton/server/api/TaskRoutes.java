package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.tool.TaskJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * {@code /v1/tasks}: the same {@link TaskService} the task tools call, so a user can do by hand exactly what
 * the model can do for them. The service checks permissions and ownership.
 */
public final class TaskRoutes {

    private final TaskService tasks;
    private final int maxBodyBytes;

    public TaskRoutes(TaskService tasks, int maxBodyBytes) {
        this.tasks = tasks;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/tasks", this::list);
        routes.post("/v1/tasks", this::create);
        routes.get("/v1/tasks/{id}", ctx -> ctx.json(one(tasks.get(Caller.of(ctx), ctx.pathParam("id")))));
        routes.patch("/v1/tasks/{id}", this::update);
        routes.post(
                "/v1/tasks/{id}/complete", ctx -> ctx.json(one(tasks.complete(Caller.of(ctx), ctx.pathParam("id")))));
        routes.delete("/v1/tasks/{id}", ctx -> {
            tasks.delete(Caller.of(ctx), ctx.pathParam("id"));
            ctx.status(204);
        });
    }

    private void list(Context ctx) {
        Principal p = Caller.of(ctx);
        ObjectNode filter = Json.MAPPER.createObjectNode();
        ctx.queryParamMap().forEach((k, v) -> filter.put(k, v.isEmpty() ? null : v.get(0)));
        ctx.json(TaskJson.toJson(tasks.list(p, TaskJson.parseFilter(filter))));
    }

    private void create(Context ctx) {
        Principal p = Caller.of(ctx);
        Task t = tasks.create(p, TaskJson.parseNewTask(RequestBody.jsonObject(ctx, maxBodyBytes)));
        ctx.status(201).json(one(t));
    }

    private void update(Context ctx) {
        Principal p = Caller.of(ctx);
        Task t = tasks.update(p, ctx.pathParam("id"), TaskJson.parseUpdate(RequestBody.jsonObject(ctx, maxBodyBytes)));
        ctx.json(one(t));
    }

    private static ObjectNode one(Task t) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.set("task", TaskJson.toJson(t));
        return n;
    }
}
