package dev.baton.core.turn;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.store.StoreUnavailableException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The usage of model calls whose turn could not be saved because the store was unavailable: a model call that
 * happened was paid for, so its row is kept here and written ({@link ConversationStore#recordUsage}) as soon as the
 * store takes it again, retried every {@code retryEvery} on a virtual thread that runs only while rows wait. Each row
 * kept and each row written is logged on {@code baton.usage} with its tokens and cost, so an operator can reconcile
 * the bill even if the process dies before the store returns (rows here live in memory only). At most
 * {@value #MAX_ROWS} rows wait; beyond that the oldest are dropped, each drop logged as an error with its figures.
 */
final class PendingUsage {
    private static final Logger log = LoggerFactory.getLogger("baton.usage");
    static final int MAX_ROWS = 10_000;
    private static final int BATCH = 500;

    private final ConversationStore store;
    private final Duration retryEvery;
    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<UsageRecord> rows = new ArrayDeque<>();
    private boolean writerRunning;

    PendingUsage(ConversationStore store, Duration retryEvery) {
        this.store = store;
        this.retryEvery = retryEvery;
    }

    /** Keeps the rows of a turn whose end could not be written, and makes sure a writer retries them. */
    void keep(String requestId, List<UsageRecord> usage, Throwable why) {
        if (usage.isEmpty()) return;
        log.atWarn()
                .addKeyValue("requestId", requestId)
                .addKeyValue("usageRows", usage.size())
                .log(
                        "request {}: usage not written with its turn ({}); kept to write when the database returns: {}",
                        requestId,
                        why.toString(),
                        describe(usage));
        List<UsageRecord> dropped = new ArrayList<>();
        boolean startWriter;
        lock.lock();
        try {
            rows.addAll(usage);
            while (rows.size() > MAX_ROWS) dropped.add(rows.removeFirst());
            startWriter = !writerRunning;
            writerRunning = true;
        } finally {
            lock.unlock();
        }
        if (!dropped.isEmpty()) {
            log.error(
                    "{} pending usage rows dropped, more than {} waited: {}",
                    dropped.size(),
                    MAX_ROWS,
                    describe(dropped));
        }
        if (startWriter) Thread.ofVirtual().name("pending-usage").start(this::writeUntilEmpty);
    }

    /** How many rows wait to be written. */
    int size() {
        lock.lock();
        try {
            return rows.size();
        } finally {
            lock.unlock();
        }
    }

    private void writeUntilEmpty() {
        while (true) {
            List<UsageRecord> batch = new ArrayList<>();
            lock.lock();
            try {
                rows.stream().limit(BATCH).forEach(batch::add);
                if (batch.isEmpty()) {
                    writerRunning = false;
                    return;
                }
            } finally {
                lock.unlock();
            }
            try {
                store.recordUsage(batch);
                log.info(
                        "wrote {} usage rows kept while the database was unavailable: {}",
                        batch.size(),
                        describe(batch));
                remove(batch);
            } catch (StoreUnavailableException e) {
                if (!pause()) return;
            } catch (RuntimeException e) {
                // the store answered and refused them: retrying would refuse them again
                log.error("pending usage rows refused by the store, dropped: {}", describe(batch), e);
                remove(batch);
            }
        }
    }

    private void remove(List<UsageRecord> written) {
        lock.lock();
        try {
            written.forEach(rows::remove);
        } finally {
            lock.unlock();
        }
    }

    /** Waits before the next attempt (pacing a retry, not synchronising); false when interrupted. */
    private boolean pause() {
        try {
            Thread.sleep(retryEvery);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lock.lock();
            try {
                writerRunning = false;
            } finally {
                lock.unlock();
            }
            return false;
        }
    }

    private static String describe(List<UsageRecord> usage) {
        long in = 0;
        long out = 0;
        BigDecimal cost = BigDecimal.ZERO;
        List<String> ids = new ArrayList<>();
        for (UsageRecord u : usage) {
            in += u.inputTokens();
            out += u.outputTokens();
            cost = cost.add(u.costUsd());
            if (ids.size() < 5) ids.add(u.id() + " " + u.userId() + " " + u.sessionId() + " " + u.model());
        }
        return "rows=" + usage.size() + " inputTokens=" + in + " outputTokens=" + out + " costUsd="
                + cost.toPlainString() + " first=" + ids;
    }
}
