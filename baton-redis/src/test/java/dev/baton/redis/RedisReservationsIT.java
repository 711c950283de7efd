package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.runtime.admission.BudgetCheck;
import dev.baton.runtime.admission.ReservationLedger;
import dev.baton.runtime.admission.ReservationRequest;
import dev.baton.testkit.db.RedisTestServer;
import dev.baton.testkit.time.SettableClock;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shared reservations against the real Redis at 127.0.0.1:6379 (skipped when it is not running, except under
 * CI=true), two ledgers standing for two instances: the races between the SQL read and the Redis admission are
 * staged by doing things inside the spent read.
 */
class RedisReservationsIT {
    static final String SCOPE = "{t1}:user:alice";
    static final Instant RENEWS = Instant.parse("2025-06-05T00:00:00Z");

    final SettableClock clock = new SettableClock(Instant.parse("2025-06-04T10:00:00Z"));
    SharedRedis redis;
    String prefix;
    RedisReservations first;
    RedisReservations second;

    @BeforeEach
    void connect() {
        RedisTestServer.require();
        redis = SharedRedis.create("redis://127.0.0.1:6379");
        prefix = "baton-it:" + UUID.randomUUID() + ":";
        first = RedisReservations.connect(redis, prefix, clock);
        second = RedisReservations.connect(redis, prefix, clock);
    }

    @AfterEach
    void close() {
        if (redis != null) redis.close();
    }

    @Test
    void instances_see_each_others_reservations_and_a_release_frees_the_headroom() {
        ReservationRequest turn = request("0.03", Duration.ofMinutes(2));
        assertThat(first.admit(turn, () -> checks("0.05", "0"))).isInstanceOf(ReservationLedger.Admitted.class);

        ReservationLedger.Admission other =
                second.admit(request("0.01", Duration.ofMinutes(2)), () -> checks("0.05", "0.02"));

        assertThat(other).isInstanceOf(ReservationLedger.Refused.class);
        assertThat(((ReservationLedger.Refused) other).used()).isEqualByComparingTo("0.05");

        first.release(turn); // its 0.03 is in the spent figure from now on
        assertThat(second.admit(request("0.01", Duration.ofMinutes(2)), () -> checks("0.05", "0.03")))
                .isInstanceOf(ReservationLedger.Admitted.class);
    }

    @Test
    void a_turn_that_ends_between_a_checks_spent_read_and_its_admission_still_counts_for_that_check() {
        ReservationRequest ending = request("0.03", Duration.ofMinutes(2));
        assertThat(first.admit(ending, () -> checks("0.03", "0"))).isInstanceOf(ReservationLedger.Admitted.class);

        // the check reads 0 spent, then the turn commits its 0.03 and releases before the check reaches Redis:
        // without the epochs it would count nowhere and this turn would be let through
        ReservationLedger.Admission raced = second.admit(request("0.01", Duration.ofMinutes(2)), () -> {
            List<BudgetCheck> read = checks("0.03", "0");
            first.release(ending);
            return read;
        });

        assertThat(raced).isInstanceOf(ReservationLedger.Refused.class);
        assertThat(((ReservationLedger.Refused) raced).used()).isEqualByComparingTo("0.03");
        // a check that begins after the release finds the cost in the spent figure and not again in Redis
        assertThat(second.admit(request("0.01", Duration.ofMinutes(2)), () -> checks("0.05", "0.03")))
                .isInstanceOf(ReservationLedger.Admitted.class);
    }

    @Test
    void a_reservation_its_instance_never_releases_stops_counting_after_its_time_to_live() {
        Duration ttl = Duration.ofSeconds(106);
        assertThat(first.admit(request("0.05", ttl), () -> checks("0.05", "0")))
                .isInstanceOf(ReservationLedger.Admitted.class);
        // the first instance "crashes": it never releases
        assertThat(second.admit(request("0.01", ttl), () -> checks("0.05", "0")))
                .isInstanceOf(ReservationLedger.Refused.class);

        clock.advance(ttl.minusSeconds(1));
        assertThat(second.admit(request("0.01", ttl), () -> checks("0.05", "0")))
                .isInstanceOf(ReservationLedger.Refused.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(second.admit(request("0.01", ttl), () -> checks("0.05", "0")))
                .isInstanceOf(ReservationLedger.Admitted.class);

        // and Redis forgets the key by itself once nothing in it can count any more
        try (StatefulRedisConnection<String, String> raw = redis.connect(StringCodec.UTF8)) {
            long pttl = raw.sync().pttl(prefix + SCOPE);
            assertThat(pttl)
                    .isPositive()
                    .isLessThanOrEqualTo(
                            ttl.plus(RedisReservations.SETTLED_GRACE).toMillis());
        }
    }

    @Test
    void a_check_that_outlasts_the_grace_of_a_release_it_needed_starts_over() {
        ReservationRequest ending = request("0.03", Duration.ofMinutes(2));
        assertThat(first.admit(ending, () -> checks("0.03", "0"))).isInstanceOf(ReservationLedger.Admitted.class);
        AtomicInteger reads = new AtomicInteger();

        ReservationLedger.Admission slow = second.admit(request("0.01", Duration.ofMinutes(2)), () -> {
            if (reads.incrementAndGet() > 1) return checks("0.05", "0.03"); // the second read sees the cost
            List<BudgetCheck> read = checks("0.03", "0");
            first.release(ending);
            // the check stalls past the grace, and meanwhile another check forgets the settled reservation
            clock.advance(RedisReservations.SETTLED_GRACE.plusSeconds(1));
            ReservationRequest meanwhile = request("0.01", Duration.ofMinutes(2));
            assertThat(first.admit(meanwhile, () -> checks("0.05", "0.03")))
                    .isInstanceOf(ReservationLedger.Admitted.class);
            first.release(meanwhile);
            return read;
        });

        assertThat(reads).hasValue(2);
        assertThat(slow).isInstanceOf(ReservationLedger.Admitted.class);
    }

    private static ReservationRequest request(String usd, Duration ttl) {
        return new ReservationRequest(UUID.randomUUID().toString(), "t1", List.of(SCOPE), new BigDecimal(usd), ttl);
    }

    private static List<BudgetCheck> checks(String budget, String spent) {
        return List.of(
                new BudgetCheck(SCOPE, new BigDecimal(budget), new BigDecimal(spent), "your daily", RENEWS, true));
    }
}
