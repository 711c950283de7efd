package dev.baton.testkit.db;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * pgjdbc's protocol trace: at FINEST its {@code QueryExecutorImpl} logs each message it sends or receives, on the
 * thread that sends it. Every exchange with the server, whether a statement, a batch, a chain of statements or a
 * COMMIT, ends with the one Sync the driver sends, so Syncs are round trips.
 */
public final class PostgresProtocolTrace {
    /** pgjdbc's protocol logger. */
    public static final String LOGGER = "org.postgresql.core.v3.QueryExecutorImpl";
    /** The message that ends a round trip. */
    public static final String SYNC = " FE=> Sync";

    private PostgresProtocolTrace() {}

    /** Runs {@code work} with the protocol trace going to {@code handler} alone (not to the log). */
    public static void during(Handler handler, Runnable work) {
        Logger protocol = Logger.getLogger(LOGGER);
        Level previousLevel = protocol.getLevel();
        boolean previousParent = protocol.getUseParentHandlers();
        protocol.addHandler(handler);
        protocol.setUseParentHandlers(false);
        protocol.setLevel(Level.FINEST);
        try {
            work.run();
        } finally {
            protocol.setLevel(previousLevel);
            protocol.setUseParentHandlers(previousParent);
            protocol.removeHandler(handler);
        }
    }

    /** The round trips this thread makes to PostgreSQL while it runs {@code work}. */
    public static int roundTripsOf(Runnable work) {
        Thread caller = Thread.currentThread();
        AtomicInteger syncs = new AtomicInteger();
        during(
                new Handler() {
                    @Override
                    public void publish(LogRecord log) {
                        if (Thread.currentThread() == caller && SYNC.equals(log.getMessage())) syncs.incrementAndGet();
                    }

                    @Override
                    public void flush() {}

                    @Override
                    public void close() {}
                },
                work);
        return syncs.get();
    }
}
