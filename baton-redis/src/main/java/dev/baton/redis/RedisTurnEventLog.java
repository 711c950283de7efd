package dev.baton.redis;

import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventLogSettings;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link TurnEventLog} in Redis Streams, so any instance can replay and follow a turn running on another. A turn's
 * events are the stream {@code <prefix>events:<turnId>}, each entry added with the explicit id {@code 0-<n>} (n = the
 * event's number, so {@code Last-Event-ID: n} reads from {@code 0-n}) by {@code XADD … MAXLEN ~ <maxEvents>}; its
 * owner is {@code <prefix>events:<turnId>:owner} and a session's newest turn {@code <prefix>session-turn:<id>}. Every
 * append renews the three keys' lifetime to the retention (one script, one round trip). A reader blocks in
 * {@code XREAD BLOCK} on a connection of its own.
 *
 * <p>An append returns once Redis has the event: a door sends an event after it was kept, so every event a client
 * saw is in the log when the turn's instance dies, and the instance that takes the turn over numbers its own events
 * after it (no id a client saw is used twice). When Redis fails or is slow ({@link #ACK_WAIT}), that writer stops
 * waiting for the rest of its turn: its stream goes on, and only a replay loses events (logged).
 */
public final class RedisTurnEventLog implements TurnEventLog {
    private static final Logger log = LoggerFactory.getLogger(RedisTurnEventLog.class);
    /** The longest single blocking read; a reader asking for more waits in several reads. */
    private static final Duration MAX_BLOCK = Duration.ofSeconds(5);
    /** How many events one read returns at most. */
    private static final long READ_BATCH = 1000;
    /** How long an append waits for Redis to have its event before the event is sent anyway. */
    static final Duration ACK_WAIT = Duration.ofMillis(500);

    private static final String APPEND = """
            redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], ARGV[2], 'type', ARGV[3], 'data', ARGV[4])
            redis.call('PEXPIRE', KEYS[1], ARGV[5])
            redis.call('PEXPIRE', KEYS[2], ARGV[5])
            redis.call('PEXPIRE', KEYS[3], ARGV[5])
            return 1
            """;

    private final SharedRedis redis;
    private final TurnEventLogSettings settings;
    private final StatefulRedisConnection<String, String> commands;
    private final AtomicLong lastFailureLog = new AtomicLong(Long.MIN_VALUE);

    private RedisTurnEventLog(
            SharedRedis redis, TurnEventLogSettings settings, StatefulRedisConnection<String, String> commands) {
        this.redis = redis;
        this.settings = settings;
        this.commands = commands;
    }

    /**
     * Connects; the connections close with {@code redis} (or with {@link #close()}).
     *
     * @throws RuntimeException when Redis is not reachable
     */
    public static RedisTurnEventLog connect(SharedRedis redis, TurnEventLogSettings settings) {
        return new RedisTurnEventLog(redis, settings, redis.connect(StringCodec.UTF8));
    }

    @Override
    public Writer writer(String turnId, TurnOwner owner) {
        String events = eventsKey(turnId);
        String ownerKey = ownerKey(turnId);
        String sessionKey = sessionKey(owner.sessionId());
        long retention = settings.retention().toMillis();
        long last = 0;
        try {
            var sync = commands.sync();
            sync.set(
                    ownerKey,
                    owner.tenantId() + "\n" + owner.userId() + "\n" + owner.sessionId(),
                    SetArgs.Builder.px(retention));
            sync.set(sessionKey, turnId, SetArgs.Builder.px(retention));
            // a paused turn going on numbers its events after those still kept
            List<StreamMessage<String, String>> newest = sync.xrevrange(events, Range.create("-", "+"), Limit.from(1));
            if (!newest.isEmpty()) last = number(newest.getFirst().getId());
        } catch (RuntimeException e) {
            failed("open the event log of turn " + turnId, e);
        }
        AtomicLong next = new AtomicLong(last);
        String[] keys = {events, ownerKey, sessionKey};
        // false once an append failed or was slow: the rest of the turn's events are sent without waiting
        AtomicBoolean waiting = new AtomicBoolean(true);
        return (type, data) -> {
            long id = next.incrementAndGet();
            try {
                RedisFuture<Long> added = commands.async()
                        .eval(
                                APPEND,
                                ScriptOutputType.INTEGER,
                                keys,
                                Long.toString(settings.maxEvents()),
                                "0-" + id,
                                type,
                                data,
                                Long.toString(retention));
                if (waiting.get()) {
                    added.toCompletableFuture().get(ACK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } else {
                    added.exceptionally(e -> {
                        failed("append to the event log of turn " + turnId, e);
                        return null;
                    });
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                waiting.set(false);
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                waiting.set(false);
                failed("append to the event log of turn " + turnId, e instanceof ExecutionException ? e.getCause() : e);
            }
            return id;
        };
    }

    @Override
    public Optional<TurnOwner> owner(String turnId) {
        String value = commands.sync().get(ownerKey(turnId));
        if (value == null) return Optional.empty();
        String[] parts = value.split("\n", 3);
        return parts.length == 3 ? Optional.of(new TurnOwner(parts[0], parts[1], parts[2])) : Optional.empty();
    }

    @Override
    public Optional<String> lastTurn(String sessionId) {
        return Optional.ofNullable(commands.sync().get(sessionKey(sessionId)));
    }

    @Override
    public Reader reader(String turnId) {
        StatefulRedisConnection<String, String> own = redis.connectOwned(MAX_BLOCK.plus(SharedRedis.COMMAND_TIMEOUT));
        String events = eventsKey(turnId);
        return new Reader() {
            @Override
            public List<LoggedEvent> read(long afterId, Duration maxWait) {
                Duration block = maxWait.compareTo(MAX_BLOCK) > 0 ? MAX_BLOCK : maxWait;
                XReadArgs args = XReadArgs.Builder.count(READ_BATCH);
                // BLOCK 0 would wait forever: a reader that may not wait only looks
                if (block.toMillis() > 0) args.block(block);
                List<StreamMessage<String, String>> read =
                        own.sync().xread(args, XReadArgs.StreamOffset.from(events, "0-" + afterId));
                List<LoggedEvent> found = new ArrayList<>(read == null ? 0 : read.size());
                if (read != null) {
                    for (StreamMessage<String, String> m : read) {
                        found.add(new LoggedEvent(
                                number(m.getId()),
                                m.getBody().getOrDefault("type", ""),
                                m.getBody().getOrDefault("data", "{}")));
                    }
                }
                return found;
            }

            @Override
            public void close() {
                own.close();
            }
        };
    }

    @Override
    public void close() {
        commands.close();
    }

    private String eventsKey(String turnId) {
        return settings.redisKeyPrefix() + "events:" + turnId;
    }

    private String ownerKey(String turnId) {
        return settings.redisKeyPrefix() + "events:" + turnId + ":owner";
    }

    private String sessionKey(String sessionId) {
        return settings.redisKeyPrefix() + "session-turn:" + sessionId;
    }

    /** The event number of an entry id {@code 0-<n>}. */
    private static long number(String entryId) {
        return Long.parseLong(entryId.substring(entryId.indexOf('-') + 1));
    }

    /** Logs a failure at most once a minute: the stream still reaches its own client, only replay loses it. */
    private void failed(String what, Throwable e) {
        long now = System.nanoTime();
        long last = lastFailureLog.get();
        if ((last == Long.MIN_VALUE || now - last >= Duration.ofMinutes(1).toNanos())
                && lastFailureLog.compareAndSet(last, now)) {
            log.error("Redis failed to {}; those events cannot be replayed: {}", what, e.toString());
        }
    }
}
