package dev.baton.notes.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.domain.ListingJson;
import dev.baton.notes.domain.NewNote;
import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteException;
import dev.baton.notes.domain.NoteUpdate;
import java.util.List;
import java.util.Set;

/**
 * The JSON form of notes, shared by the tool and the REST API ({@code /v1/notes}):
 *
 * <pre>{"id", "title", "content", "sessionId"|null, "createdAt", "updatedAt"}</pre>
 *
 * Parsing refuses unknown fields, so neither path can smuggle in an owner, an id or a session.
 */
public final class NoteJson {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private static final Set<String> FIELDS = Set.of("title", "content");

    private NoteJson() {}

    /** The NOTE shape; owner fields are never included. */
    public static ObjectNode toJson(Note note) {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("id", note.id());
        json.put("title", note.title());
        json.put("content", note.content());
        json.put("sessionId", note.sessionId());
        json.put("createdAt", note.createdAt().toString());
        json.put("updatedAt", note.updatedAt().toString());
        return json;
    }

    /** {@code {"notes": [NOTE...], "count": N}} */
    public static ObjectNode toJson(List<Note> notes) {
        return ListingJson.of("notes", notes, NoteJson::toJson);
    }

    /**
     * Reads a new note {@code {title, content}}.
     *
     * @param sessionId the conversation it is taken in (from the tool context, never from the body); null by hand
     */
    public static NewNote parseNew(JsonNode body, String sessionId) {
        JsonFields fields = fields(body);
        if (!fields.hasNonNull("title") || !fields.hasNonNull("content"))
            throw NoteException.malformed("title and content are required");
        return new NewNote(fields.text("title"), fields.text("content"), sessionId);
    }

    /** Reads changes {@code {title?, content?}}. */
    public static NoteUpdate parseUpdate(JsonNode body) {
        JsonFields fields = fields(body);
        return new NoteUpdate(fields.optionalText("title"), fields.optionalText("content"));
    }

    private static JsonFields fields(JsonNode body) {
        return JsonFields.of(body, FIELDS, NoteException::malformed);
    }
}
