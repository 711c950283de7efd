package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link AgentMemoryContract} over Sqlite. */
class SqliteAgentMemoryIT extends AgentMemoryContract {
    @Override
    TestDatabases.Opened open() throws Exception {
        return TestDatabases.sqlite();
    }
}
