package dev.baton.server.limits;

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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Where token buckets live: in this process (one instance) or in Redis (shared by every instance). */
sealed interface BucketStore extends AutoCloseable {

    /** The bucket for {@code key}, created with {@code configuration} on first use. */
    Bucket bucket(String key, BucketConfiguration configuration);

    @Override
    void close();

    /** Buckets in a map of this process. */
    static BucketStore local(Clock clock) {
        return new Local(new ClockTimeMeter(clock));
    }

    /** Buckets in {@code redis}, under keys starting with {@code keyPrefix}; the caller closes {@code redis}. */
    static BucketStore redis(SharedRedis redis, String keyPrefix, Clock clock) {
        return Redis.connect(redis, keyPrefix, new ClockTimeMeter(clock));
    }

    final class Local implements BucketStore {
        /** Above this many buckets, buckets that refilled completely (nothing to remember) are dropped. */
        private static final int PRUNE_ABOVE = 50_000;

        private final ClockTimeMeter time;
        private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

        Local(ClockTimeMeter time) {
            this.time = time;
        }

        @Override
        public Bucket bucket(String key, BucketConfiguration configuration) {
            if (buckets.size() > PRUNE_ABOVE) prune(configuration);
            return buckets.computeIfAbsent(key, k -> {
                var builder = Bucket.builder().withCustomTimePrecision(time);
                for (var bandwidth : configuration.getBandwidths()) builder.addLimit(bandwidth);
                return builder.build();
            });
        }

        private void prune(BucketConfiguration sample) {
            long full = sample.getBandwidths()[0].getCapacity();
            buckets.values().removeIf(b -> b.getAvailableTokens() >= full);
        }

        @Override
        public void close() {
            buckets.clear();
        }
    }

    final class Redis implements BucketStore {
        private final StatefulRedisConnection<String, byte[]> connection;
        private final ProxyManager<String> proxies;
        private final String prefix;

        private Redis(StatefulRedisConnection<String, byte[]> connection, ProxyManager<String> proxies, String prefix) {
            this.connection = connection;
            this.proxies = proxies;
            this.prefix = prefix;
        }

        static Redis connect(SharedRedis redis, String prefix, ClockTimeMeter time) {
            StatefulRedisConnection<String, byte[]> connection =
                    redis.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
            ProxyManager<String> proxies = Bucket4jLettuce.casBasedBuilder(connection)
                    .clientClock(time)
                    .requestTimeout(Duration.ofSeconds(2))
                    // a key lives until its bucket would be full again: an idle caller leaves nothing behind
                    .expirationAfterWrite(
                            ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofHours(2)))
                    .build();
            return new Redis(connection, proxies, prefix);
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
}
