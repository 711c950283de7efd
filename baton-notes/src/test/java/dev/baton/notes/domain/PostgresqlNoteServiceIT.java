package dev.baton.notes.domain;

import dev.baton.testkit.db.PostgresTestDatabase;

class PostgresqlNoteServiceIT extends NoteServiceContract {
    private PostgresTestDatabase postgres;

    @Override
    protected String createDatabase() {
        postgres = PostgresTestDatabase.create();
        return postgres.url();
    }

    @Override
    protected void dropDatabase() {
        if (postgres != null) postgres.drop();
    }
}
