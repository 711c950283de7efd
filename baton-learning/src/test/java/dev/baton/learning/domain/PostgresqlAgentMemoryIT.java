package dev.baton.learning.domain;

import dev.baton.learning.support.TestDatabases;

/** {@link AgentMemoryContract} over Postgresql. */
class PostgresqlAgentMemoryIT extends AgentMemoryContract {
    @Override
    TestDatabases.Opened open() {
        return TestDatabases.postgresql();
    }
}
