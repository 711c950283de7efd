package dev.baton.tasks.domain;

import dev.baton.tasks.support.TestDatabases;

/**
 * {@link TaskServiceContract} over a fresh schema in the local PostgreSQL (skipped when it is unreachable,
 * except under CI=true).
 */
class PostgresqlTaskServiceIT extends TaskServiceContract {
    @Override
    TestDatabases.Opened open() {
        return TestDatabases.postgresql();
    }
}
