package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteException;
import dev.baton.notes.domain.NoteService;
import dev.baton.notes.tool.NoteJson;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;

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
        routes.get("/v1/notes", mapped(ctx -> ctx.json(NoteJson.toJson(notes.list(Caller.of(ctx))))));
        routes.post("/v1/notes", mapped(ctx -> {
            Note n = notes.create(Caller.of(ctx), NoteJson.parseNew(RequestBody.jsonObject(ctx, maxBodyBytes), null));
            ctx.status(201).json(one(n));
        }));
        routes.get("/v1/notes/{id}", mapped(ctx -> ctx.json(one(notes.get(Caller.of(ctx), ctx.pathParam("id"))))));
        routes.patch(
                "/v1/notes/{id}",
                mapped(ctx -> ctx.json(one(notes.update(
                        Caller.of(ctx),
                        ctx.pathParam("id"),
                        NoteJson.parseUpdate(RequestBody.jsonObject(ctx, maxBodyBytes)))))));
        routes.delete("/v1/notes/{id}", mapped(ctx -> {
            notes.delete(Caller.of(ctx), ctx.pathParam("id"));
            ctx.status(204);
        }));
    }

    private static ObjectNode one(Note n) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.set("note", NoteJson.toJson(n));
        return out;
    }

    /** Domain refusals become API errors: structure → 400, values → 422, not yours → 404, permission → 403. */
    private static Handler mapped(Handler h) {
        return ctx -> {
            try {
                h.handle(ctx);
            } catch (NoteException e) {
                throw switch (e.kind()) {
                    case NOT_FOUND -> new ApiException(404, "not_found", e.getMessage());
                    case PERMISSION_DENIED -> new ApiException(403, "forbidden", e.getMessage());
                    case MALFORMED -> new ApiException(400, "invalid_request", e.getMessage());
                    case INVALID_ARGUMENT -> new ApiException(422, "invalid_value", e.getMessage());
                };
            }
        };
    }
}
