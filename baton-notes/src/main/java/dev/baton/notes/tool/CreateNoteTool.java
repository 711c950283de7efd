package dev.baton.notes.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.domain.DomainTool;
import dev.baton.core.tool.ToolContext;
import dev.baton.notes.domain.Note;
import dev.baton.notes.domain.NoteService;
import java.util.Set;

/**
 * {@code create_note}: saves a note for the caller, linked to the current conversation → {@code {"note": NOTE}}.
 * A thin adapter: the arguments become one {@link NoteService#create} call made as {@code context.principal()}.
 */
final class CreateNoteTool extends DomainTool {
    static final String NAME = "create_note";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "title": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Short title"},
                "content": {"type": "string", "minLength": 1, "maxLength": 10000,
                            "description": "The note itself, in plain text or Markdown"}
              },
              "required": ["title", "content"],
              "additionalProperties": false
            }
            """;

    private final NoteService service;

    CreateNoteTool(NoteService service) {
        super(
                NAME,
                "Save a note for the user (a summary, key points, a plan) that they can read later.",
                SCHEMA,
                Set.of(NoteService.WRITE),
                false,
                // its effect is one row of the notes table: it commits with the record of the call
                true);
        this.service = service;
    }

    @Override
    protected JsonNode run(JsonNode arguments, ToolContext context) {
        Note note = service.create(context.principal(), NoteJson.parseNew(arguments, context.sessionId()));
        return NoteJson.MAPPER.createObjectNode().set("note", NoteJson.toJson(note));
    }
}
