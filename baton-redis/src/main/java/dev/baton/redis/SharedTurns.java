package dev.baton.redis;

import dev.baton.runtime.turn.TurnLocks;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What instances sharing a Redis know about each other's turns (DESIGN §5, §9): a lock per session
 * ({@code SET <prefix>turn:<session> <instance:turn> NX PX <ttl>}, so a crashed instance's lock expires) and a
 * {@code <prefix>cancel} channel every instance listens on for the sessions whose turn it should cancel. Redis
 * errors reach the caller as runtime exceptions; the runtime's {@code RunningTurns} falls back to this instance alone.
 */
public final class SharedTurns implements TurnLocks {
    /** Deletes the lock only while it is still the one this turn took (a timed-out lock may be someone else's). */
    private static final String RELEASE =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

    /** Deletes the lock while a turn of the holder ARGV[1] holds it (its token is the holder's name, a colon, a uuid). */
    private static final String BREAK = "local v = redis.call('get', KEYS[1])"
            + " if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ':'"
            + " then return redis.call('del', KEYS[1]) else return 0 end";

    private final SharedTurnSettings settings;
    /** The name every lock of this instance's turns starts with. */
    private final String holder;

    private final StatefulRedisConnection<String, String> commands;
    private final StatefulRedisPubSubConnection<String, String> cancels;

    private SharedTurns(
            String holder,
            SharedTurnSettings settings,
            StatefulRedisConnection<String, String> commands,
            StatefulRedisPubSubConnection<String, String> cancels) {
        this.holder = holder;
        this.settings = settings;
        this.commands = commands;
        this.cancels = cancels;
    }

    /**
     * Connects and subscribes to the cancel channel; {@code onCancel} hears every session id published there (on a
     * Redis thread: it must not block).
     *
     * @throws RuntimeException when Redis is not reachable
     */
    public static SharedTurns connect(SharedRedis redis, SharedTurnSettings settings, Consumer<String> onCancel) {
        return connect(redis, settings, UUID.randomUUID().toString(), onCancel);
    }

    /** Connects shared turns whose locks are taken in the name of {@code holder} (see {@link #breakHeldBy}). */
    public static SharedTurns connect(
            SharedRedis redis, SharedTurnSettings settings, String holder, Consumer<String> onCancel) {
        StatefulRedisConnection<String, String> commands = redis.connect(StringCodec.UTF8);
        StatefulRedisPubSubConnection<String, String> cancels = redis.connectPubSub();
        cancels.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String sessionId) {
                if (channel.equals(settings.cancelChannel())) onCancel.accept(sessionId);
            }
        });
        // Lettuce resubscribes by itself after a reconnect
        cancels.sync().subscribe(settings.cancelChannel());
        return new SharedTurns(safe(holder), settings, commands, cancels);
    }

    /** The connector a runtime uses: its locks are taken in the name of the runtime's boot, when it tells it. */
    public static TurnLocks.Connector connector(SharedRedis redis, SharedTurnSettings settings) {
        return new TurnLocks.Connector() {
            @Override
            public TurnLocks connect(Consumer<String> onCancel) {
                return SharedTurns.connect(redis, settings, onCancel);
            }

            @Override
            public TurnLocks connect(String holder, Consumer<String> onCancel) {
                return SharedTurns.connect(redis, settings, holder, onCancel);
            }
        };
    }

    /** A colon ends the holder's name in a token, so none is in it. */
    private static String safe(String holder) {
        return holder.replace(':', '_');
    }

    /** Takes the session's lock for {@code ttl}; returns its token, or null when another turn holds it. */
    @Override
    public String lock(String sessionId, Duration ttl) {
        String token = holder + ":" + UUID.randomUUID();
        String ok = commands.sync()
                .set(settings.lockKey(sessionId), token, SetArgs.Builder.nx().px(ttl.toMillis()));
        return "OK".equals(ok) ? token : null;
    }

    /** Releases the session's lock if {@code token} still holds it. */
    @Override
    public void unlock(String sessionId, String token) {
        commands.sync().eval(RELEASE, ScriptOutputType.INTEGER, new String[] {settings.lockKey(sessionId)}, token);
    }

    @Override
    public boolean breakHeldBy(String sessionId, String holder) {
        Long deleted = commands.sync()
                .eval(BREAK, ScriptOutputType.INTEGER, new String[] {settings.lockKey(sessionId)}, safe(holder));
        return deleted != null && deleted == 1L;
    }

    /** Asks every instance to cancel the session's turn; false (and nothing sent) when no instance holds its lock. */
    @Override
    public boolean cancelAnywhere(String sessionId) {
        if (commands.sync().exists(settings.lockKey(sessionId)) == 0) return false;
        commands.sync().publish(settings.cancelChannel(), sessionId);
        return true;
    }

    @Override
    public void close() {
        cancels.close();
        commands.close();
    }
}
