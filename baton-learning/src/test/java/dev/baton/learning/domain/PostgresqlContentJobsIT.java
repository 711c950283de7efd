package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link ContentJobsContract} over Postgresql. */
class PostgresqlContentJobsIT extends ContentJobsContract {
    @Override
    TestDatabases.Opened open() {
        return TestDatabases.postgresql();
    }
}
