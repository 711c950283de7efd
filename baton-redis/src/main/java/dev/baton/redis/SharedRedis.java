package dev.baton.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one Redis client ({@code rateLimits.redisUrl} or {@code BATON_REDIS_URL}) that rate-limit buckets and budget
 * reservations share, and the server's cross-instance turn locks and cancel signals borrow: one event loop and one
 * configuration, a connection per codec. Closing it closes them all.
 */
public final class SharedRedis implements AutoCloseable {
    /** How long a command may take before it fails; a budget check waits this long at most for Redis. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    private final RedisClient client;
    private final List<StatefulConnection<?, ?>> connections = new ArrayList<>();

    private SharedRedis(RedisClient client) {
        this.client = client;
    }

    /** A client for {@code url} (e.g. {@code redis://127.0.0.1:6379}); connections are made on demand. */
    public static SharedRedis create(String url) {
        return new SharedRedis(RedisClient.create(url));
    }

    /** A new connection with {@code codec}, closed with this client; fails when Redis is not reachable. */
    public synchronized <K, V> StatefulRedisConnection<K, V> connect(RedisCodec<K, V> codec) {
        StatefulRedisConnection<K, V> connection = client.connect(codec);
        connection.setTimeout(COMMAND_TIMEOUT);
        connections.add(connection);
        return connection;
    }

    /**
     * A connection of strings for one blocking reader (a blocking command holds its connection), with
     * {@code timeout} for its commands; the caller closes it (the client's shutdown closes it too).
     */
    public StatefulRedisConnection<String, String> connectOwned(Duration timeout) {
        StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
        connection.setTimeout(timeout);
        return connection;
    }

    /** A new pub/sub connection of strings, closed with this client; fails when Redis is not reachable. */
    public synchronized StatefulRedisPubSubConnection<String, String> connectPubSub() {
        StatefulRedisPubSubConnection<String, String> connection = client.connectPubSub(StringCodec.UTF8);
        connection.setTimeout(COMMAND_TIMEOUT);
        connections.add(connection);
        return connection;
    }

    @Override
    public synchronized void close() {
        for (StatefulConnection<?, ?> c : connections) c.close();
        connections.clear();
        // no quiet period: the connections are closed, and the default waits seconds for nothing
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
