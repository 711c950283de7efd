package dev.baton.redis;

import dev.baton.runtime.admission.BucketStore;
import dev.baton.runtime.admission.ClockTimeMeter;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Clock;
import java.time.Duration;

/** Rate-limit buckets in Redis, shared by every instance (Bucket4j's compare-and-swap proxies over Lettuce). */
public final class RedisBucketStore implements BucketStore {
    private final StatefulRedisConnection<String, byte[]> connection;
    private final ProxyManager<String> proxies;
    private final String prefix;

    private RedisBucketStore(
            StatefulRedisConnection<String, byte[]> connection, ProxyManager<String> proxies, String prefix) {
        this.connection = connection;
        this.proxies = proxies;
        this.prefix = prefix;
    }

    /** Buckets in {@code redis} under keys starting with {@code prefix}; the caller closes {@code redis}. */
    public static RedisBucketStore connect(SharedRedis redis, String prefix, Clock clock) {
        StatefulRedisConnection<String, byte[]> connection =
                redis.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
        ProxyManager<String> proxies = Bucket4jLettuce.casBasedBuilder(connection)
                .clientClock(new ClockTimeMeter(clock))
                .requestTimeout(Duration.ofSeconds(2))
                // a key lives until its bucket would be full again: an idle caller leaves nothing behind
                .expirationAfterWrite(
                        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofHours(2)))
                .build();
        return new RedisBucketStore(connection, proxies, prefix);
    }

    @Override
    public String describe() {
        return "in Redis";
    }

    @Override
    public Bucket bucket(String key, BucketConfiguration configuration) {
        return proxies.getProxy(prefix + key, () -> configuration);
    }

    @Override
    public void close() {
        // the client is shared with the budget reservations: whoever created it shuts it down
        connection.close();
    }
}
