package dev.baton.notes.domain;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteNoteServiceIT extends NoteServiceContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("notes.db");
    }

    @Override
    protected void dropDatabase() {}
}
