package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link TopicLibraryContract} over SQLite: typo tolerance by the FTS5 trigram tokenizer. */
class SqliteTopicLibraryIT extends TopicLibraryContract {
    @Override
    TestDatabases.Opened open() throws Exception {
        return TestDatabases.sqlite();
    }
}
