package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link TopicLibraryContract} over PostgreSQL: typo tolerance by pg_trgm. */
class PostgresqlTopicLibraryIT extends TopicLibraryContract {
    @Override
    TestDatabases.Opened open() {
        return TestDatabases.postgresql();
    }
}
