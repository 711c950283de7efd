package dev.baton.notes;

import dev.baton.notes.domain.NoteService;
import dev.baton.notes.store.JdbcNoteRepository;
import dev.baton.notes.tool.NoteToolSource;
import dev.baton.store.jdbc.Database;
import java.time.Clock;
import java.util.Objects;

/**
 * The built-in notes domain wired up: open the {@link Database} with {@link #MIGRATIONS} among its extra migration
 * locations, then
 *
 * <pre>{@code
 * Database db = Database.open(url, List.of(TaskModule.MIGRATIONS, NotesModule.MIGRATIONS));
 * NotesModule notes = NotesModule.create(db, Clock.systemUTC());
 * catalog sources: notes.toolSource()          // create_note
 * notes.service().list(principal);             // the REST API
 * }</pre>
 *
 * @param service the domain, for the REST API
 * @param toolSource the notes tools, for the tool catalog
 */
public record NotesModule(NoteService service, NoteToolSource toolSource) {
    /** The Flyway location of the notes table (versions V200 and up). */
    public static final String MIGRATIONS = "classpath:db/migration/notes";

    public NotesModule {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(toolSource, "toolSource");
    }

    /** @param database opened with {@link #MIGRATIONS} */
    public static NotesModule create(Database database, Clock clock) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clock, "clock");
        NoteService service = new NoteService(new JdbcNoteRepository(database), clock);
        return new NotesModule(service, new NoteToolSource(service));
    }
}
