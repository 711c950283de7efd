package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link PlatformServicesContract} over a fresh schema in the local PostgreSQL. */
class PostgresqlPlatformServicesIT extends PlatformServicesContract {
    @Override
    TestDatabases.Opened open() {
        return TestDatabases.postgresql();
    }
}
