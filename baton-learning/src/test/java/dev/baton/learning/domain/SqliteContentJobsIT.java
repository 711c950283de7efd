package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link ContentJobsContract} over Sqlite. */
class SqliteContentJobsIT extends ContentJobsContract {
    @Override
    TestDatabases.Opened open() throws Exception {
        return TestDatabases.sqlite();
    }
}
