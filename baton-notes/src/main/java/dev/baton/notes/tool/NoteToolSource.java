package dev.baton.notes.tool;

import dev.baton.core.domain.FixedToolSource;
import dev.baton.notes.domain.NoteService;
import java.util.List;
import java.util.Objects;

/** The notes tools, named "notes": {@code create_note}. */
public final class NoteToolSource extends FixedToolSource {
    public static final String NAME = "notes";

    public NoteToolSource(NoteService service) {
        super(NAME, List.of(new CreateNoteTool(Objects.requireNonNull(service, "service"))));
    }
}
