package dev.baton.notes.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.notes.domain.NewNote;
import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteException;
import dev.baton.notes.domain.NoteUpdate;
import java.util.Iterator;
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
        ObjectNode json = MAPPER.createObjectNode();
        ArrayNode array = json.putArray("notes");
        notes.forEach(n -> array.add(toJson(n)));
        json.put("count", notes.size());
        return json;
    }

    /**
     * Reads a new note {@code {title, content}}.
     *
     * @param sessionId the conversation it is taken in (from the tool context, never from the body); null by hand
     */
    public static NewNote parseNew(JsonNode body, String sessionId) {
        checkFields(body);
        if (!body.hasNonNull("title") || !body.hasNonNull("content"))
            throw NoteException.malformed("title and content are required");
        return new NewNote(text(body, "title"), text(body, "content"), sessionId);
    }

    /** Reads changes {@code {title?, content?}}. */
    public static NoteUpdate parseUpdate(JsonNode body) {
        checkFields(body);
        return new NoteUpdate(
                body.hasNonNull("title") ? text(body, "title") : null,
                body.hasNonNull("content") ? text(body, "content") : null);
    }

    private static void checkFields(JsonNode body) {
        if (body == null || !body.isObject()) throw NoteException.malformed("expected a JSON object");
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) throw NoteException.malformed("unknown field '" + f + "'");
        }
    }

    private static String text(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (!v.isTextual()) throw NoteException.malformed(field + " must be a string");
        return v.textValue();
    }
}
