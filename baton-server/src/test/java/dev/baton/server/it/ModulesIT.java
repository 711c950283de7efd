package dev.baton.server.it;

import java.nio.file.Path;

/** The module flows on SQLite. */
class ModulesIT extends ModulesContract {
    @Override
    protected String createDatabase(Path dir) {
        return TestServer.sqliteUrl(dir);
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
