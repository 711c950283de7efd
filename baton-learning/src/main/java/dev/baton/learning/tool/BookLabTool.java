package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.labs.LabsService;
import java.util.Set;

/** {@code book_lab}: books the caller a seat in a lab slot → {@code {"booking": BOOKING}}. */
final class BookLabTool extends LearningTool {
    static final String NAME = "book_lab";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "lab_id": {"type": "string", "minLength": 1, "maxLength": 64},
                "slot_start": {"type": "string", "minLength": 1, "maxLength": 64, "description":
                  "When the slot starts, exactly as listed, an ISO-8601 date-time such as 2026-11-21T10:00:00Z"}
              },
              "required": ["lab_id", "slot_start"],
              "additionalProperties": false
            }
            """;

    private final LabsService labs;

    BookLabTool(LabsService labs) {
        super(NAME, "Books a lab slot for the user.", SCHEMA, Set.of(LearningPermissions.WRITE), true);
        this.labs = labs;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        JsonFields fields = LearningJson.fields(arguments, Set.of("lab_id", "slot_start"));
        var booking = labs.book(principal, fields.text("lab_id"), fields.text("slot_start"));
        return LearningJson.MAPPER.createObjectNode().set("booking", LearningJson.booking(booking));
    }
}
