package dev.baton.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/**
 * Counts the SQL statements SQLite runs in this process, from the trace of the SQLite pool's statement cache: every
 * execution of a prepared statement ({@code executeQuery}, {@code executeUpdate}, a batch) is logged at TRACE on the
 * {@code dev.baton.store.jdbc.StatementCachingDataSource} logger with its SQL. (The driver's own trace logs
 * compilations, and the pool compiles a statement once per connection.) All of Baton's SQL on SQLite, BEGIN and
 * COMMIT included, runs as prepared statements; the pragmas the driver runs when it opens a connection are not seen.
 *
 * <p>Statements from HikariCP's own threads are kept apart under {@link #POOL_PREFIX}. A batched insert runs once
 * however many rows it writes; Baton's only batches are a turn's own tool calls and usage rows, so that cannot
 * hide work that grows with the conversation.
 */
public final class SqlStatementCounter implements AutoCloseable {
    private static final String LOGGER = "dev.baton.store.jdbc.StatementCachingDataSource";
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

    /** Every statement since {@link #restartSequence()}, in the order run, with its thread: where transactions are. */
    private final List<String> sequence = Collections.synchronizedList(new ArrayList<>());

    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            String sql = event.getFormattedMessage();
            boolean pool = isPoolThread(event.getThreadName());
            String key = pool ? POOL_PREFIX + normalize(sql) : normalize(sql);
            bySql.computeIfAbsent(key, k -> new LongAdder()).increment();
            if (!pool) sequence.add(event.getThreadName() + ": " + normalize(sql));
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

    /** Forgets the statements seen so far, so that {@link #sequence()} starts from here. */
    public void restartSequence() {
        sequence.clear();
    }

    /** The statements since {@link #restartSequence()} (the pool's own left out), each as "thread: sql", in order. */
    public List<String> sequence() {
        synchronized (sequence) {
            return List.copyOf(sequence);
        }
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
