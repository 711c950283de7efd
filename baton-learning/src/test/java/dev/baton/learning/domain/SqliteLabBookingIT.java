package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link LabBookingContract} over a SQLite file. */
class SqliteLabBookingIT extends LabBookingContract {
    @Override
    TestDatabases.Opened open() throws Exception {
        return TestDatabases.sqlite();
    }
}
