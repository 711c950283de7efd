package dev.baton.runtime.admission;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where rate-limit token buckets live: in this process ({@link #local}) or somewhere every instance shares (the
 * baton-redis module's {@code RedisBucketStore}).
 */
public interface BucketStore extends AutoCloseable {

    /** The bucket for {@code key}, created with {@code configuration} on first use. */
    Bucket bucket(String key, BucketConfiguration configuration);

    /** Where the buckets are, for the startup log (e.g. {@code in process}). */
    default String describe() {
        return "in process";
    }

    @Override
    void close();

    /** Buckets in a map of this process. */
    static BucketStore local(Clock clock) {
        return new Local(new ClockTimeMeter(clock));
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
}
