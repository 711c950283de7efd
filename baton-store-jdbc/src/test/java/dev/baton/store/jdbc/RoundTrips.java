package dev.baton.store.jdbc;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the round trips this thread makes to PostgreSQL while it runs some work, from pgjdbc's protocol trace: every
 * exchange with the server ends with the one Sync message the driver sends (as {@code baton-bench}'s {@code
 * PostgresRoundTrips} counts them).
 */
final class RoundTrips {
    private static final String PROTOCOL_LOGGER = "org.postgresql.core.v3.QueryExecutorImpl";

    private RoundTrips() {}

    static int of(Runnable work) {
        Logger protocol = Logger.getLogger(PROTOCOL_LOGGER);
        Thread caller = Thread.currentThread();
        AtomicInteger syncs = new AtomicInteger();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord log) {
                // the handler runs on the thread that sends the message
                if (Thread.currentThread() == caller && " FE=> Sync".equals(log.getMessage())) syncs.incrementAndGet();
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Level previousLevel = protocol.getLevel();
        boolean previousParent = protocol.getUseParentHandlers();
        protocol.addHandler(counter);
        protocol.setUseParentHandlers(false);
        protocol.setLevel(Level.FINEST);
        try {
            work.run();
        } finally {
            protocol.setLevel(previousLevel);
            protocol.setUseParentHandlers(previousParent);
            protocol.removeHandler(counter);
        }
        return syncs.get();
    }
}
