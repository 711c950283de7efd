package dev.baton.redis;

import dev.baton.runtime.admission.BudgetCheck;
import dev.baton.runtime.admission.ReservationLedger;
import dev.baton.runtime.admission.ReservationRequest;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reservations in Redis, shared by every instance: one hash per budget scope ({@code <prefix>{tenant}:user:<id>},
 * {@code <prefix>{tenant}:tenant}; the hash tag keeps a tenant's keys in one cluster slot). Admission is one Lua
 * script, atomic across the scopes of a turn.
 *
 * <p>A hash holds {@code r:<id>} → {@code "<nano-USD> <expires-at-ms> <settled-epoch>"} per reservation, plus two
 * counters: {@code epoch}, raised by every release, and {@code floor}, the highest epoch of a released reservation
 * already forgotten. Expiry times come from the instances' clocks (so keep them in sync; the margin absorbs skew).
 *
 * <p>Why the epochs: the spent figure comes from SQL and the admission from Redis, which are not one transaction. A
 * turn that ends between a check's SQL read and its script would otherwise count zero times: its cost was not yet
 * in the sum, its reservation no longer in the hash. So a check reads each scope's epoch <em>before</em> its SQL read;
 * a release does not delete a reservation but marks it settled at the next epoch and keeps it for {@link
 * #SETTLED_GRACE}; and the script counts every open reservation plus every reservation settled after the epoch the
 * check read (its cost may or may not be in that sum: counted twice at worst, never zero times). If a reservation
 * the check needed was already forgotten (the check took longer than the grace), the script says so and the check
 * starts over.
 */
public final class RedisReservations implements ReservationLedger {
    /** How long a released reservation keeps counting for checks that began before its release. */
    static final Duration SETTLED_GRACE = Duration.ofMinutes(1);

    private static final int ATTEMPTS = 3;
    private static final long ADMITTED_STATUS = 1;
    private static final long REFUSED_STATUS = 0;
    /** Amounts in Lua are doubles: whole nano-USD stay exact up to 2^53 (about 9 million USD). */
    private static final long MAX_NANOS = 1L << 53;

    /*
     * KEYS: one hash per scope. ARGV: now-ms, id, nano-USD, expires-at-ms, key-ttl-ms, the epoch read per key, then
     * (key index, headroom in nano-USD) per check. Returns {1} admitted, {0, check number, held} refused, {-1} stale.
     */
    private static final String ADMIT = """
            local now = tonumber(ARGV[1])
            local n = #KEYS
            local held = {}
            for i = 1, n do
              local key = KEYS[i]
              local seen = tonumber(ARGV[5 + i])
              local epoch = tonumber(redis.call('HGET', key, 'epoch') or '0')
              local floor = tonumber(redis.call('HGET', key, 'floor') or '0')
              if seen > epoch or seen < floor then return {-1} end
              local sum = 0
              local raised = floor
              local fields = redis.call('HGETALL', key)
              for j = 1, #fields, 2 do
                local field = fields[j]
                if string.sub(field, 1, 2) == 'r:' then
                  local a, e, s = string.match(fields[j + 1], '^(%d+) (%d+) (%d+)$')
                  local amount, expires, settled = tonumber(a), tonumber(e), tonumber(s)
                  if settled > seen or (settled == 0 and expires > now) then
                    sum = sum + amount
                  elseif expires <= now then
                    redis.call('HDEL', key, field)
                    if settled > raised then raised = settled end
                  end
                end
              end
              if raised > floor then redis.call('HSET', key, 'floor', raised) end
              held[i] = sum
            end
            local c = 6 + n
            local k = 1
            while c < #ARGV do
              local scope = tonumber(ARGV[c])
              if held[scope] >= tonumber(ARGV[c + 1]) then return {0, k, held[scope]} end
              c = c + 2
              k = k + 1
            end
            local ttl = tonumber(ARGV[5])
            for i = 1, n do
              redis.call('HSET', KEYS[i], 'r:' .. ARGV[2], ARGV[3] .. ' ' .. ARGV[4] .. ' 0')
              if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
            end
            return {1}
            """;

    /* KEYS: the reservation's hashes. ARGV: id, when the settled entry is forgotten (ms), key-ttl-ms. */
    private static final String SETTLE = """
            local field = 'r:' .. ARGV[1]
            local ttl = tonumber(ARGV[3])
            for i = 1, #KEYS do
              local value = redis.call('HGET', KEYS[i], field)
              if value then
                local amount, _, settled = string.match(value, '^(%d+) (%d+) (%d+)$')
                if settled == '0' then
                  local epoch = redis.call('HINCRBY', KEYS[i], 'epoch', 1)
                  redis.call('HSET', KEYS[i], field, amount .. ' ' .. ARGV[2] .. ' ' .. epoch)
                  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
                end
              end
            end
            return 1
            """;

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final Clock clock;
    private final String admitSha;
    private final String settleSha;

    private RedisReservations(StatefulRedisConnection<String, String> connection, String prefix, Clock clock) {
        this.connection = connection;
        this.prefix = prefix;
        this.clock = clock;
        this.admitSha = connection.sync().digest(ADMIT);
        this.settleSha = connection.sync().digest(SETTLE);
    }

    /** Reservations in {@code redis} under keys starting with {@code prefix}; the caller closes {@code redis}. */
    public static RedisReservations connect(SharedRedis redis, String prefix, Clock clock) {
        return new RedisReservations(redis.connect(StringCodec.UTF8), prefix, clock);
    }

    /** @throws Unavailable when Redis fails, or keeps changing under the check (then nothing is held) */
    @Override
    public Admission admit(ReservationRequest request, Supplier<List<BudgetCheck>> checks) {
        try {
            return admitInRedis(request, checks);
        } catch (RedisException e) {
            throw new Unavailable("budget reservations in Redis failed: " + e.getMessage(), e);
        }
    }

    private Admission admitInRedis(ReservationRequest request, Supplier<List<BudgetCheck>> checks) {
        String[] keys = keys(request);
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            // the epochs before the spent read: releases after this point are counted by the script
            List<String> args = new ArrayList<>();
            String[] seen = new String[keys.length];
            for (int i = 0; i < keys.length; i++) {
                String epoch = commands().hget(keys[i], "epoch");
                seen[i] = epoch == null ? "0" : epoch;
            }
            List<BudgetCheck> read = checks.get();
            long now = clock.millis();
            args.add(Long.toString(now));
            args.add(request.id());
            args.add(Long.toString(nanos(request.amount(), RoundingMode.CEILING)));
            args.add(Long.toString(now + request.ttl().toMillis()));
            args.add(Long.toString(request.ttl().plus(SETTLED_GRACE).toMillis()));
            args.addAll(List.of(seen));
            for (BudgetCheck check : read) {
                int scope = request.scopes().indexOf(check.scope());
                if (scope < 0) throw new IllegalArgumentException("a check of a scope not reserved: " + check.scope());
                args.add(Integer.toString(scope + 1));
                args.add(Long.toString(headroom(check)));
            }
            List<?> reply = (List<?>) run(admitSha, ADMIT, ScriptOutputType.MULTI, keys, args);
            long status = (Long) reply.getFirst();
            if (status == ADMITTED_STATUS) return ADMITTED;
            if (status == REFUSED_STATUS) {
                BudgetCheck failed = read.get(((Long) reply.get(1)).intValue() - 1);
                BigDecimal held = BigDecimal.valueOf((Long) reply.get(2), 9);
                return new Refused(failed, failed.spent().add(held));
            }
        }
        throw new RedisException("budget reservations changed under " + ATTEMPTS + " checks in a row");
    }

    @Override
    public void release(ReservationRequest request) {
        long forgetAt = clock.millis() + SETTLED_GRACE.toMillis();
        List<String> args = List.of(request.id(), Long.toString(forgetAt), Long.toString(SETTLED_GRACE.toMillis()));
        try {
            run(settleSha, SETTLE, ScriptOutputType.INTEGER, keys(request), args);
        } catch (RedisException e) {
            throw new Unavailable("releasing a budget reservation in Redis failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        connection.close();
    }

    private String[] keys(ReservationRequest request) {
        return request.scopes().stream().map(s -> prefix + s).toArray(String[]::new);
    }

    private RedisCommands<String, String> commands() {
        return connection.sync();
    }

    private Object run(String sha, String script, ScriptOutputType type, String[] keys, List<String> args) {
        String[] values = args.toArray(String[]::new);
        try {
            return commands().evalsha(sha, type, keys, values);
        } catch (RedisNoScriptException e) {
            // first use on this server, or its script cache was flushed: EVAL loads it again
            return commands().eval(script, type, keys, values);
        }
    }

    /** What may still be reserved under the check's budget, in whole nano-USD, rounded against the caller. */
    private static long headroom(BudgetCheck check) {
        long budget = nanos(check.budget(), RoundingMode.FLOOR);
        long spent = nanos(check.spent(), RoundingMode.CEILING);
        return budget - spent;
    }

    private static long nanos(BigDecimal usd, RoundingMode rounding) {
        BigDecimal n = usd.movePointRight(9).setScale(0, rounding);
        if (n.compareTo(BigDecimal.valueOf(MAX_NANOS)) > 0) return MAX_NANOS;
        if (n.compareTo(BigDecimal.valueOf(-MAX_NANOS)) < 0) return -MAX_NANOS;
        return n.longValueExact();
    }
}
