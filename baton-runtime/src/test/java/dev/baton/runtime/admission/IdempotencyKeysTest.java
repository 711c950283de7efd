package dev.baton.runtime.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryIdempotencyStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.testing.SettableClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {
    private final SettableClock clock = new SettableClock();
    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();
    private final Principal alice = Principal.of("t", "alice", Set.of());
    private final IdempotencyKey key = new IdempotencyKey("k-1", "{\"content\":\"hi\"}");

    @Test
    void a_claim_whose_request_never_ended_expires_with_its_lease_and_the_retry_runs() {
        IdempotencyKeys keys = new IdempotencyKeys(store, clock, Duration.ofSeconds(75));
        assertThat(keys.claim(alice, key, "session:s-1")).isInstanceOf(IdempotencyKeys.Claimed.class);
        // the instance running that request is killed: the claim is never completed nor released

        clock.advance(Duration.ofSeconds(74));
        assertThatThrownBy(() -> keys.claim(alice, key, "session:s-1"))
                .isInstanceOfSatisfying(
                        RefusalException.class,
                        e -> assertThat(e.refusal()).isInstanceOf(Refusal.IdempotencyKeyInUse.class));

        clock.advance(Duration.ofSeconds(2));
        assertThat(keys.claim(alice, key, "session:s-1")).isInstanceOf(IdempotencyKeys.Claimed.class);
        // the retry now holds a fresh lease of its own
        clock.advance(Duration.ofSeconds(74));
        assertThatThrownBy(() -> keys.claim(alice, key, "session:s-1")).isInstanceOf(RefusalException.class);
    }

    @Test
    void an_expired_claim_is_never_taken_over_by_another_request_with_the_same_key() {
        IdempotencyKeys keys = new IdempotencyKeys(store, clock, Duration.ofSeconds(75));
        keys.claim(alice, key, "session:s-1");
        clock.advance(Duration.ofMinutes(5));
        assertThatThrownBy(() -> keys.claim(alice, new IdempotencyKey("k-1", "{\"content\":\"other\"}"), "session:s-1"))
                .isInstanceOfSatisfying(
                        RefusalException.class,
                        e -> assertThat(e.refusal()).isInstanceOf(Refusal.IdempotencyKeyReused.class));
    }

    @Test
    void a_completed_key_replays_however_old_its_claim() {
        IdempotencyKeys keys = new IdempotencyKeys(store, clock, Duration.ofSeconds(75));
        var claimed = (IdempotencyKeys.Claimed) keys.claim(alice, key, "session:s-1");
        TurnOutcome answered = answered("hello");
        keys.complete(claimed, answered);
        clock.advance(Duration.ofHours(1));
        assertThat(keys.claim(alice, key, "session:s-1")).isEqualTo(new IdempotencyKeys.Replay(answered));
    }

    @Test
    void a_key_an_earlier_version_answered_with_its_rendered_response_is_refused_never_run_again() {
        IdempotencyKeys keys = new IdempotencyKeys(store, clock, Duration.ofSeconds(75));
        var claimed = (IdempotencyKeys.Claimed) keys.claim(alice, key, "session:s-1");
        // what MessageRoutes stored before the runtime kept outcomes
        store.complete(claimed.owner(), claimed.key(), 200, "{\"state\":\"completed\",\"answer\":\"hello\"}");
        assertThatThrownBy(() -> keys.claim(alice, key, "session:s-1"))
                .isInstanceOfSatisfying(
                        RefusalException.class,
                        e -> assertThat(e.refusal()).isInstanceOf(Refusal.IdempotencyKeyReused.class));
    }

    private static TurnOutcome answered(String answer) {
        Instant at = Instant.parse("2026-11-28T21:00:00Z");
        Message user = new Message("m-1", "s-1", "alice", 1, MessageRole.USER, "hi", MessageStatus.COMPLETE, null, at);
        Message assistant = new Message(
                "m-2", "s-1", "alice", 2, MessageRole.ASSISTANT, answer, MessageStatus.COMPLETE, "sim:m", at);
        ToolCallRecord call = new ToolCallRecord(
                "tc-1",
                "s-1",
                "m-2",
                "add_task",
                "{\"title\":\"x\"}",
                "{\"id\":1}",
                ToolCallState.SUCCEEDED,
                null,
                at,
                at,
                3);
        TurnEvent.Usage usage = new TurnEvent.Usage(10, 2, 0, new BigDecimal("0.000120"));
        return new TurnOutcome(
                user,
                assistant,
                List.of(call),
                usage,
                "sim:m",
                new TurnEvent.Done("m-2", "sim:m", usage, 40, List.of("add_task")));
    }

    @Test
    void a_key_that_could_not_be_released_while_the_store_was_away_is_released_once_it_is_back() throws Exception {
        var down = new java.util.concurrent.atomic.AtomicBoolean(true);
        dev.baton.core.conversation.IdempotencyStore flaky =
                (dev.baton.core.conversation.IdempotencyStore) java.lang.reflect.Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {dev.baton.core.conversation.IdempotencyStore.class},
                        (proxy, method, args) -> {
                            if (down.get() && method.getName().equals("release"))
                                throw new dev.baton.core.store.StoreUnavailableException(
                                        "down", Duration.ofSeconds(1), null);
                            try {
                                return method.invoke(store, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
        IdempotencyKeys keys = new IdempotencyKeys(flaky, clock, Duration.ofSeconds(75));
        var claimed = (IdempotencyKeys.Claimed) keys.claim(alice, key, "session:s-1");

        keys.releaseWhenPossible(claimed, Duration.ofMillis(10));
        assertThatThrownBy(() -> keys.claim(alice, key, "session:s-1")).isInstanceOf(RefusalException.class);
        down.set(false);

        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (store.find(IdempotencyKeys.owner(alice), "k-1").isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling for the background release, bounded by the deadline
        }
        assertThat(keys.claim(alice, key, "session:s-1")).isInstanceOf(IdempotencyKeys.Claimed.class);
    }
}
