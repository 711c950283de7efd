package dev.baton.notes.tool;

import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolSource;
import dev.baton.notes.domain.NoteService;
import java.util.List;
import java.util.Objects;

/** The notes tools, named "notes": {@code create_note}. */
public final class NoteToolSource implements ToolSource {
    public static final String NAME = "notes";

    private final List<Tool> tools;

    public NoteToolSource(NoteService service) {
        this.tools = List.of(new CreateNoteTool(Objects.requireNonNull(service, "service")));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Tool> tools() {
        return tools;
    }
}
