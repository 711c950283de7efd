package dev.baton.tasks.domain;

import dev.baton.tasks.support.TestDatabases;

/** {@link TaskServiceContract} over a SQLite file in a temporary folder. */
class SqliteTaskServiceIT extends TaskServiceContract {
    @Override
    TestDatabases.Opened open() throws Exception {
        return TestDatabases.sqlite();
    }
}
