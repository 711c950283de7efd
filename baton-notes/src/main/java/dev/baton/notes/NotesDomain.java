package dev.baton.notes;

import dev.baton.core.tool.ToolSource;
import dev.baton.domain.Domain;
import dev.baton.domain.DomainContext;
import dev.baton.domain.RunningDomain;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.notes.domain.NoteService;
import dev.baton.notes.rest.NoteRoutes;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The notes domain plugged into Baton: the notes table, the "study" agent, {@code create_note} and {@code /v1/notes}. */
public final class NotesDomain implements Domain {
    /** The classpath resource of the "study" agent (YAML), which keeps its notes here. */
    public static final String STUDY_AGENT = "agents/study.yaml";

    @Override
    public String name() {
        return "notes";
    }

    @Override
    public int order() {
        return 200;
    }

    @Override
    public List<String> migrations() {
        return List.of(NotesModule.MIGRATIONS);
    }

    @Override
    public List<String> agents() {
        return List.of(STUDY_AGENT);
    }

    @Override
    public Set<String> userPermissions() {
        return Set.of(NoteService.READ, NoteService.WRITE);
    }

    @Override
    public RunningDomain start(DomainContext context) {
        NotesModule notes = NotesModule.create(context.database(), context.clock());
        return new RunningDomain() {
            @Override
            public List<ToolSource> toolSources() {
                return List.of(notes.toolSource());
            }

            @Override
            public List<RouteGroup> routes() {
                return List.of(new NoteRoutes(notes.service()));
            }

            @Override
            public <T> Optional<T> service(Class<T> type) {
                return type.isInstance(notes.service()) ? Optional.of(type.cast(notes.service())) : Optional.empty();
            }
        };
    }
}
