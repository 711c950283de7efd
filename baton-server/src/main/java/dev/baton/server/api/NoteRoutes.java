package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteService;
import dev.baton.notes.tool.NoteJson;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;

/**
 * {@code /v1/notes}: the same {@link NoteService} the {@code create_note} tool calls. The service checks
 * permissions and ownership; another user's note is a 404.
 */
public final class NoteRoutes {

    private final NoteService notes;
    private final int maxBodyBytes;

    public NoteRoutes(NoteService notes, int maxBodyBytes) {
        this.notes = notes;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/notes", ctx -> ctx.json(NoteJson.toJson(notes.list(Caller.of(ctx)))));
        routes.post("/v1/notes", ctx -> {
            Note n = notes.create(Caller.of(ctx), NoteJson.parseNew(RequestBody.jsonObject(ctx, maxBodyBytes), null));
            ctx.status(201).json(one(n));
        });
        routes.get("/v1/notes/{id}", ctx -> ctx.json(one(notes.get(Caller.of(ctx), ctx.pathParam("id")))));
        routes.patch(
                "/v1/notes/{id}",
                ctx -> ctx.json(one(notes.update(
                        Caller.of(ctx),
                        ctx.pathParam("id"),
                        NoteJson.parseUpdate(RequestBody.jsonObject(ctx, maxBodyBytes))))));
        routes.delete("/v1/notes/{id}", ctx -> {
            notes.delete(Caller.of(ctx), ctx.pathParam("id"));
            ctx.status(204);
        });
    }

    private static ObjectNode one(Note n) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.set("note", NoteJson.toJson(n));
        return out;
    }
}
