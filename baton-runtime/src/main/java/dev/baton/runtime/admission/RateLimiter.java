package dev.baton.runtime.admission;

import dev.baton.core.auth.Principal;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one message from the caller's quotas: each of the user's policies, then each of the tenant's. Keys come from
 * the verified token only (subject and tenant claim), never from anything else the client sends.
 *
 * <p>Every policy is a Bucket4j bucket of its own with interval refill (the whole quota comes back when the window
 * ends), so the headers can say exactly what is left of each. When a later policy refuses, the units already taken
 * from earlier ones are given back. If the bucket store fails (Redis down), the message is let through and the
 * failure logged: rate limits protect capacity, they do not bill.
 */
final class RateLimiter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RateLimiter.class);
    private static final long LOG_STORE_FAILURE_EVERY_NANOS =
            Duration.ofMinutes(1).toNanos();

    private final List<Policy> userPolicies;
    private final List<Policy> tenantPolicies;
    private final List<RatePolicy> allPolicies;
    private final BucketStore store;
    private final AtomicLong lastFailureLog = new AtomicLong(System.nanoTime() - LOG_STORE_FAILURE_EVERY_NANOS);

    private record Policy(RatePolicy policy, BucketConfiguration configuration) {}

    private record Taken(Policy policy, Bucket bucket, ConsumptionProbe probe) {}

    public RateLimiter(RateLimitSettings settings, BucketStore store) {
        this.store = Objects.requireNonNull(store, "store");
        this.userPolicies = settings.perUser().stream().map(RateLimiter::policy).toList();
        this.tenantPolicies =
                settings.perTenant().stream().map(RateLimiter::policy).toList();
        List<RatePolicy> all = new ArrayList<>(settings.perUser());
        all.addAll(settings.perTenant());
        this.allPolicies = List.copyOf(all);
    }

    /** Takes one message from {@code caller}'s quotas; when a quota is used up, nothing is taken from any. */
    public RateDecision acquire(Principal caller) {
        if (allPolicies.isEmpty()) return RateDecision.UNLIMITED;
        List<Taken> taken = new ArrayList<>();
        try {
            for (Policy p : userPolicies) {
                Taken t = take(
                        "user:" + caller.tenantId() + ":" + caller.userId() + ":"
                                + p.policy().name(),
                        p);
                if (!t.probe().isConsumed()) return refuse(t, taken);
                taken.add(t);
            }
            for (Policy p : tenantPolicies) {
                Taken t = take("tenant:" + caller.tenantId() + ":" + p.policy().name(), p);
                if (!t.probe().isConsumed()) return refuse(t, taken);
                taken.add(t);
            }
        } catch (RuntimeException e) {
            logStoreFailure(e);
            return RateDecision.UNLIMITED;
        }
        Taken tightest = taken.getFirst();
        for (Taken t : taken) {
            if (t.probe().getRemainingTokens() < tightest.probe().getRemainingTokens()) tightest = t;
        }
        return new RateDecision(
                true,
                allPolicies,
                tightest.policy().policy(),
                tightest.probe().getRemainingTokens(),
                Duration.ofNanos(tightest.probe().getNanosToWaitForReset()));
    }

    private Taken take(String key, Policy p) {
        Bucket bucket = store.bucket(key, p.configuration());
        return new Taken(p, bucket, bucket.tryConsumeAndReturnRemaining(1));
    }

    private RateDecision refuse(Taken refusing, List<Taken> alreadyTaken) {
        for (Taken t : alreadyTaken) t.bucket().addTokens(1);
        return new RateDecision(
                false,
                allPolicies,
                refusing.policy().policy(),
                0,
                Duration.ofNanos(refusing.probe().getNanosToWaitForRefill()));
    }

    private static Policy policy(RatePolicy p) {
        Bandwidth bandwidth = Bandwidth.builder()
                .capacity(p.quota())
                .refillIntervally(p.quota(), p.window())
                .id(p.name())
                .build();
        return new Policy(p, BucketConfiguration.builder().addLimit(bandwidth).build());
    }

    private void logStoreFailure(RuntimeException e) {
        long now = System.nanoTime();
        long last = lastFailureLog.get();
        if (now - last >= LOG_STORE_FAILURE_EVERY_NANOS && lastFailureLog.compareAndSet(last, now)) {
            log.error(
                    "rate limit store failed; letting messages through unlimited until it recovers: {}", e.toString());
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
