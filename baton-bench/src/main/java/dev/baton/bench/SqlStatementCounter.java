package dev.baton.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/**
 * Counts the SQL statements SQLite compiles in this process, from the driver's own trace: sqlite-jdbc logs every
 * {@code NativeDB.prepare} (each {@code prepareStatement}/{@code Statement.execute}) and {@code _exec} at TRACE
 * on the {@code org.sqlite.core.NativeDB} logger. No other module changes, no proxy around the pool.
 *
 * <p>Statements from HikariCP's own threads are kept apart under {@link #POOL_PREFIX}. A batched insert is prepared
 * once however many rows it writes; Baton's only batches are a turn's own tool calls and usage rows, so that cannot
 * hide work that grows with the conversation.
 */
public final class SqlStatementCounter implements AutoCloseable {
    private static final String LOGGER = "org.sqlite.core.NativeDB";
    private static final String MARKER = "[SQLite EXEC] ";
    /**
     * Prefix of statements run by HikariCP's own threads (opening a connection runs sqlite-jdbc's pragmas; the
     * housekeeper probes idle ones): the pool's upkeep, which happens whenever it happens, not a turn's work.
     */
    public static final String POOL_PREFIX = "[pool] ";

    private static final Pattern POOL_THREAD =
            Pattern.compile("connection[- ](adder|closer|assassinator)|housekeeper", Pattern.CASE_INSENSITIVE);

    private final Logger logger;
    private final Level previousLevel;
    private final boolean previousAdditive;
    /** In the order each statement was first seen, so a turn reads top to bottom. */
    private final Map<String, LongAdder> bySql = Collections.synchronizedMap(new LinkedHashMap<>());

    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            String message = event.getFormattedMessage();
            int at = message.indexOf(MARKER);
            String sql = at < 0 ? message : message.substring(at + MARKER.length());
            String key = isPoolThread(event.getThreadName()) ? POOL_PREFIX + normalize(sql) : normalize(sql);
            bySql.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
    };

    private SqlStatementCounter(Logger logger) {
        this.logger = logger;
        this.previousLevel = logger.getLevel();
        this.previousAdditive = logger.isAdditive();
    }

    /** Starts counting; {@link #close()} stops. */
    public static SqlStatementCounter start() {
        if (!(LoggerFactory.getLogger(LOGGER) instanceof Logger logback)) {
            throw new IllegalStateException("counting SQL needs Logback as the SLF4J backend");
        }
        SqlStatementCounter counter = new SqlStatementCounter(logback);
        counter.appender.setContext(logback.getLoggerContext());
        counter.appender.setName("baton-bench-sql-counter");
        counter.appender.start();
        logback.addAppender(counter.appender);
        logback.setAdditive(false); // the trace lines are counted, not printed
        logback.setLevel(Level.TRACE);
        return counter;
    }

    /** Statements counted so far. */
    public long total() {
        return bySql().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Counts by statement text (whitespace collapsed), in the order each was first seen. */
    public Map<String, Long> bySql() {
        Map<String, Long> out = new LinkedHashMap<>();
        synchronized (bySql) {
            bySql.forEach((sql, n) -> out.put(sql, n.sum()));
        }
        return out;
    }

    @Override
    public void close() {
        logger.setLevel(previousLevel);
        logger.setAdditive(previousAdditive);
        logger.detachAppender(appender);
        appender.stop();
    }

    /** HikariCP names its threads "{pool}:connection-adder", "{pool}:housekeeper" and so on. */
    private static boolean isPoolThread(String thread) {
        return thread != null && POOL_THREAD.matcher(thread).find();
    }

    private static String normalize(String sql) {
        return sql.strip().replaceAll("\\s+", " ");
    }
}
