package dev.baton.server.limits;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.RedisClient;
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

    /** Buckets in Redis at {@code redisUrl}, under keys starting with {@code keyPrefix}. */
    static BucketStore redis(String redisUrl, String keyPrefix, Clock clock) {
        return Redis.connect(redisUrl, keyPrefix, new ClockTimeMeter(clock));
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
        private final RedisClient client;
        private final StatefulRedisConnection<String, byte[]> connection;
        private final ProxyManager<String> proxies;
        private final String prefix;

        private Redis(
                RedisClient client,
                StatefulRedisConnection<String, byte[]> connection,
                ProxyManager<String> proxies,
                String prefix) {
            this.client = client;
            this.connection = connection;
            this.proxies = proxies;
            this.prefix = prefix;
        }

        static Redis connect(String url, String prefix, ClockTimeMeter time) {
            RedisClient client = RedisClient.create(url);
            try {
                StatefulRedisConnection<String, byte[]> connection =
                        client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
                ProxyManager<String> proxies = Bucket4jLettuce.casBasedBuilder(connection)
                        .clientClock(time)
                        .requestTimeout(Duration.ofSeconds(2))
                        // a key lives until its bucket would be full again: an idle caller leaves nothing behind
                        .expirationAfterWrite(
                                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofHours(2)))
                        .build();
                return new Redis(client, connection, proxies, prefix);
            } catch (RuntimeException e) {
                shutdown(client);
                throw e;
            }
        }

        @Override
        public Bucket bucket(String key, BucketConfiguration configuration) {
            return proxies.getProxy(prefix + key, () -> configuration);
        }

        @Override
        public void close() {
            connection.close();
            shutdown(client);
        }

        private static void shutdown(RedisClient client) {
            // no quiet period: the connection is closed, and the default waits seconds for nothing
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
