package dev.baton.server.app;

import dev.baton.runtime.Baton;
import dev.baton.store.jdbc.Database;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** The gauges an operator watches the database and the runtime's held-back writes with. */
final class RuntimeGauges {
    private RuntimeGauges() {}

    static void register(Database db, Baton baton, MeterRegistry registry) {
        Gauge.builder("baton.database.available", db, d -> d.available() ? 1 : 0)
                .description("1 while the database's circuit breaker lets calls through, 0 while it is open")
                .register(registry);
        Gauge.builder("baton.database.connections.active", db, Database::connectionsInUse)
                .description("database connections lent out now: reads and writes, never a turn waiting on a model")
                .register(registry);
        Gauge.builder("baton.database.connections.pending", db, Database::connectionsAwaited)
                .description("threads waiting for a database connection now")
                .register(registry);
        Gauge.builder("baton.usage.pending.rows", baton, b -> b.pendingUsageRows())
                .description("usage rows of model calls kept in memory until the database takes them")
                .register(registry);
    }
}
