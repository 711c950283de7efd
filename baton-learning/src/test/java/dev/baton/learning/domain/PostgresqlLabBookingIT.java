package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link LabBookingContract} over a fresh schema in the local PostgreSQL. */
class PostgresqlLabBookingIT extends LabBookingContract {
    @Override
    TestDatabases.Opened open() {
        return TestDatabases.postgresql();
    }
}
