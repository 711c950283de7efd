package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link PlatformServicesContract} over a SQLite file. */
class SqlitePlatformServicesIT extends PlatformServicesContract {
    @Override
    TestDatabases.Opened open() throws Exception {
        return TestDatabases.sqlite();
    }
}
