package dev.baton.runtime.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryIdempotencyStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.admission.IdempotencyKeys;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DurableRetriesTest {
    private static final Instant AT = Instant.parse("2026-11-29T05:00:00Z");
    private static final String TARGET = "session:s-1";

    private final Principal alice = Principal.of("t", "alice", Set.of());
    private final IdempotencyKey key = new IdempotencyKey("k-1", "{\"content\":\"hi\"}");
    private final IdempotencyKeys keys = new IdempotencyKeys(new InMemoryIdempotencyStore(), Clock.systemUTC());
    private final Leases leases = new Leases();

    @Test
    void a_retry_waits_for_the_outcome_of_the_turn_running_on_a_live_instance_and_replays_it() throws Exception {
        // a look once a minute: only the settlement on this instance can end the wait in time
        DurableRetries retries = new DurableRetries(leases, keys, Duration.ofMinutes(5), Duration.ofMinutes(1));
        IdempotencyKeys.Claimed first = (IdempotencyKeys.Claimed) keys.claim(alice, key, TARGET);
        leases.turn.set(leased(1));

        CompletableFuture<Optional<IdempotencyKeys.Claim>> retry =
                CompletableFuture.supplyAsync(() -> retries.awaitTurn(alice, key, TARGET));
        assertThat(leases.looked.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(retry)
                .as("the retry found the leased turn and waits: no 409")
                .isNotDone();

        keys.complete(first, answered("hello"));
        leases.turn.set(null);
        retries.settled();

        Optional<IdempotencyKeys.Claim> claim = retry.get(10, TimeUnit.SECONDS);
        assertThat(claim)
                .get()
                .isInstanceOfSatisfying(
                        IdempotencyKeys.Replay.class,
                        r -> assertThat(r.outcome().answer()).isEqualTo("hello"));
    }

    @Test
    void a_retry_gets_the_key_when_the_turn_taken_over_failed() throws Exception {
        DurableRetries retries = new DurableRetries(leases, keys, Duration.ofMinutes(5), Duration.ofMinutes(1));
        keys.claim(alice, key, TARGET);
        leases.turn.set(leased(2));
        CompletableFuture<Optional<IdempotencyKeys.Claim>> retry =
                CompletableFuture.supplyAsync(() -> retries.awaitTurn(alice, key, TARGET));

        assertThat(leases.looked.await(10, TimeUnit.SECONDS)).isTrue();
        // the taker settles the key of the turn it finished (here: a failure frees the key, so the retry runs)
        retries.settle(leased(2), failed());

        assertThat(retry.get(10, TimeUnit.SECONDS)).get().isInstanceOf(IdempotencyKeys.Claimed.class);
    }

    @Test
    void a_key_held_by_no_leased_turn_is_refused_as_in_use_after_a_few_looks() {
        DurableRetries retries = new DurableRetries(leases, keys, Duration.ofMinutes(5), Duration.ofMillis(20));
        keys.claim(alice, key, TARGET);
        // its request died before its turn was leased: nothing will settle the key before its claim runs out
        assertThat(retries.awaitTurn(alice, key, TARGET)).isEmpty();
    }

    @Test
    void a_retry_waits_no_longer_than_its_bound() {
        DurableRetries retries = new DurableRetries(leases, keys, Duration.ofMillis(300), Duration.ofMillis(50));
        keys.claim(alice, key, TARGET);
        leases.turn.set(leased(1));
        long started = System.nanoTime();
        assertThatThrownBy(() -> retries.awaitTurn(alice, key, TARGET))
                .isInstanceOfSatisfying(
                        RefusalException.class,
                        e -> assertThat(e.refusal()).isInstanceOf(Refusal.IdempotencyKeyInUse.class));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    private LeasedTurn leased(long epoch) {
        return new LeasedTurn(
                "turn-1",
                epoch,
                "t",
                "alice",
                "s-1",
                "req-1",
                "agent",
                "{}",
                new InstanceIdentity("api-1", "boot-1"),
                AT.plusSeconds(15),
                AT,
                "{}",
                IdempotencyKeys.owner(alice),
                "k-1");
    }

    private static TurnOutcome answered(String answer) {
        Message user = new Message("m-1", "s-1", "alice", 1, MessageRole.USER, "hi", MessageStatus.COMPLETE, null, AT);
        Message assistant = new Message(
                "m-2", "s-1", "alice", 2, MessageRole.ASSISTANT, answer, MessageStatus.COMPLETE, "sim:m", AT);
        TurnEvent.Usage usage = new TurnEvent.Usage(10, 2, 0, new BigDecimal("0.000120"));
        return new TurnOutcome(
                user, assistant, List.of(), usage, "sim:m", new TurnEvent.Done("m-2", "sim:m", usage, 40, List.of()));
    }

    private static TurnOutcome failed() {
        Message user = new Message("m-1", "s-1", "alice", 1, MessageRole.USER, "hi", MessageStatus.COMPLETE, null, AT);
        return new TurnOutcome(
                user,
                null,
                List.of(),
                new TurnEvent.Usage(0, 0, 0, BigDecimal.ZERO),
                "sim:m",
                new TurnEvent.Failed("model_unavailable", "down", true));
    }

    /** The lease store as far as a waiting retry reads it: the turn holding the key, if any. */
    private static final class Leases implements TurnLeaseStore {
        final AtomicReference<LeasedTurn> turn = new AtomicReference<>();
        final CountDownLatch looked = new CountDownLatch(1);

        @Override
        public Optional<LeasedTurn> byIdempotencyKey(String owner, String key) {
            looked.countDown();
            return Optional.ofNullable(turn.get());
        }

        @Override
        public void open(LeasedTurn turn) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Set<TurnFence> renew(InstanceIdentity owner, Collection<TurnFence> held, Instant until) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean close(TurnFence fence) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int expireEarlierBoots(InstanceIdentity current, Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<LeasedTurn> inSession(String sessionId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<LeasedTurn> orphaned(Instant now, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<LeasedTurn> takeOver(LeasedTurn turn, InstanceIdentity by, Instant now, Instant until) {
            throw new UnsupportedOperationException();
        }
    }
}
