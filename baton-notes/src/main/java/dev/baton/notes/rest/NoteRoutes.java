package dev.baton.notes.rest;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.Routes;
import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteService;
import dev.baton.notes.tool.NoteJson;
import java.util.Objects;

/** {@code /v1/notes}: the same {@link NoteService} the notes tool calls; the service checks permissions and ownership. */
public final class NoteRoutes implements RouteGroup {
    private final NoteService notes;

    public NoteRoutes(NoteService notes) {
        this.notes = Objects.requireNonNull(notes, "notes");
    }

    @Override
    public void register(Routes routes) {
        routes.get("/v1/notes", req -> RestResponse.ok(NoteJson.toJson(notes.list(req.caller()))));
        routes.post(
                "/v1/notes",
                req -> RestResponse.created(one(notes.create(req.caller(), NoteJson.parseNew(req.body(), null)))));
        routes.get("/v1/notes/{id}", req -> RestResponse.ok(one(notes.get(req.caller(), req.pathParam("id")))));
        routes.patch(
                "/v1/notes/{id}",
                req -> RestResponse.ok(
                        one(notes.update(req.caller(), req.pathParam("id"), NoteJson.parseUpdate(req.body())))));
        routes.delete("/v1/notes/{id}", req -> {
            notes.delete(req.caller(), req.pathParam("id"));
            return RestResponse.noContent();
        });
    }

    private static ObjectNode one(Note n) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("note", NoteJson.toJson(n));
        return out;
    }
}
