package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.id.Ids;
import dev.baton.runtime.durable.InstanceIdentity;
import dev.baton.runtime.durable.LeasedTurn;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Leases of running turns on {@link JdbcTurnLeaseStore}, and the fencing of a turn's writes by
 * {@link JdbcConversationStore}: one instance wins a takeover, and the instance that lost the lease writes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcTurnLeaseContract {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(15);

    private final InstanceIdentity first = new InstanceIdentity("api-1", "boot-a");
    private final InstanceIdentity second = new InstanceIdentity("api-2", "boot-b");
    private Database db;
    private JdbcTurnLeaseStore leases;
    private JdbcConversationStore conversations;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        leases = new JdbcTurnLeaseStore(db);
        conversations = new JdbcConversationStore(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Test
    void a_turns_user_message_and_its_lease_commit_together_or_not_at_all() {
        Session session = session();
        LeasedTurn turn = unopened(first, T0, session);

        Message stored = leases.openAfter(() -> conversations.appendUserMessage(userMessage(session, "one")), turn);

        assertThat(stored.seq()).isPositive();
        assertThat(leases.byIdempotencyKey(turn.idempotencyOwner(), turn.idempotencyKey()))
                .hasValueSatisfying(t -> assertThat(t.turnId()).isEqualTo(turn.turnId()));
        // a lease that cannot be written (the turn's id is taken) takes the message it was saved with along
        assertThatThrownBy(() ->
                        leases.openAfter(() -> conversations.appendUserMessage(userMessage(session, "two")), turn))
                .isInstanceOf(RuntimeException.class);
        assertThat(conversations.recentMessages(session.userId(), session.id(), 10))
                .extracting(Message::content)
                .containsExactly("one");
    }

    private static Message userMessage(Session session, String content) {
        return new Message(
                Ids.newId(),
                session.id(),
                session.userId(),
                0,
                MessageRole.USER,
                content,
                MessageStatus.COMPLETE,
                null,
                T0.truncatedTo(ChronoUnit.MILLIS));
    }

    @Test
    void a_turn_is_orphaned_once_its_lease_runs_out_and_a_renewed_lease_holds_on() {
        LeasedTurn turn = opened(first, T0);

        assertThat(orphanedIds(T0.plusSeconds(14))).doesNotContain(turn.turnId());
        assertThat(leases.renew(first, List.of(turn.fence()), T0.plusSeconds(30)))
                .containsExactly(turn.fence());
        assertThat(orphanedIds(T0.plusSeconds(29))).doesNotContain(turn.turnId());
        assertThat(orphanedIds(T0.plusSeconds(30))).contains(turn.turnId());
    }

    @Test
    void of_two_instances_taking_an_orphaned_turn_over_at_once_exactly_one_wins_at_the_next_epoch() throws Exception {
        LeasedTurn turn = opened(first, T0);
        Instant later = T0.plus(LEASE).plusSeconds(1);
        LeasedTurn seen = orphaned(later, turn.turnId());

        CountDownLatch start = new CountDownLatch(1);
        List<Callable<Optional<LeasedTurn>>> racers = new ArrayList<>();
        for (InstanceIdentity by : List.of(second, new InstanceIdentity("api-3", "boot-c"))) {
            racers.add(() -> {
                start.await();
                return leases.takeOver(seen, by, later, later.plus(LEASE));
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Optional<LeasedTurn>>> results = new ArrayList<>();
            for (Callable<Optional<LeasedTurn>> r : racers) results.add(pool.submit(r));
            start.countDown();
            List<LeasedTurn> won = new ArrayList<>();
            for (Future<Optional<LeasedTurn>> f : results) f.get().ifPresent(won::add);

            assertThat(won).hasSize(1);
            assertThat(won.getFirst().epoch()).isEqualTo(2);
            assertThat(won.getFirst().state()).isEqualTo(turn.state());
            assertThat(orphanedIds(later)).doesNotContain(turn.turnId());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void the_instance_that_lost_its_turn_writes_no_step_no_tool_call_and_no_answer() {
        Session session = session();
        LeasedTurn turn = opened(first, T0, session);
        Instant later = T0.plus(LEASE);
        LeasedTurn taken =
                leases.takeOver(turn, second, later, later.plus(LEASE)).orElseThrow();
        TurnFence lost = turn.fence();

        assertThatThrownBy(() -> conversations.recordStep(
                        session.userId(), List.of(toolCall(session)), lost, "{\"stale\":true}"))
                .isInstanceOf(TurnFencedException.class);
        assertThat(StoredRows.toolCalls(db, session.id())).isEmpty();
        assertThatThrownBy(() -> conversations.completeTurn(session.userId(), answer(session, lost)))
                .isInstanceOf(TurnFencedException.class);
        assertThat(conversations.recentMessages(session.userId(), session.id(), 10))
                .isEmpty();
        assertThat(leases.renew(first, List.of(lost), later.plus(LEASE))).isEmpty();

        // the new owner's writes go through, and its answer ends the lease: stored once
        conversations.recordStep(session.userId(), List.of(toolCall(session)), taken.fence(), "{\"step\":2}");
        assertThat(StoredRows.toolCalls(db, session.id())).hasSize(1);
        conversations.completeTurn(session.userId(), answer(session, taken.fence()));
        assertThat(conversations.recentMessages(session.userId(), session.id(), 10))
                .hasSize(1);
        assertThatThrownBy(() -> conversations.completeTurn(session.userId(), answer(session, taken.fence())))
                .isInstanceOf(TurnFencedException.class);
        assertThat(conversations.recentMessages(session.userId(), session.id(), 10))
                .hasSize(1);
        assertThat(orphanedIds(later.plus(Duration.ofHours(1)))).doesNotContain(turn.turnId());
    }

    @Test
    void a_running_turn_is_found_by_the_idempotency_key_of_the_request_that_started_it() {
        LeasedTurn turn = opened(first, T0);

        assertThat(leases.byIdempotencyKey(turn.idempotencyOwner(), turn.idempotencyKey()))
                .hasValueSatisfying(t -> assertThat(t.turnId()).isEqualTo(turn.turnId()));
        assertThat(leases.byIdempotencyKey(turn.idempotencyOwner(), "another-key"))
                .isEmpty();
        leases.close(turn.fence());
        assertThat(leases.byIdempotencyKey(turn.idempotencyOwner(), turn.idempotencyKey()))
                .isEmpty();
    }

    @Test
    void a_sessions_leased_turn_is_found_until_its_answer_ends_the_lease() {
        Session session = session();
        LeasedTurn turn = opened(first, T0, session);

        assertThat(leases.inSession(session.id()))
                .hasValueSatisfying(t -> assertThat(t.fence()).isEqualTo(turn.fence()));
        conversations.completeTurn(session.userId(), answer(session, turn.fence()));
        assertThat(leases.inSession(session.id())).isEmpty();
    }

    @Test
    void a_step_writes_its_checkpoint_which_a_takeover_goes_on_from() {
        Session session = session();
        LeasedTurn turn = opened(first, T0, session);

        conversations.recordStep(session.userId(), List.of(), turn.fence(), "{\"iteration\":1}");

        assertThat(orphaned(T0.plus(LEASE), turn.turnId()).state()).isEqualTo("{\"iteration\":1}");
    }

    @Test
    void a_takeover_goes_on_from_the_step_its_stalled_owner_wrote_after_the_orphan_was_seen() {
        Session session = session();
        LeasedTurn turn = opened(first, T0, session);
        LeasedTurn seen = orphaned(T0.plus(LEASE), turn.turnId());

        // the owner was only stalled: its epoch still holds, so its step is written before the takeover
        conversations.recordStep(session.userId(), List.of(), turn.fence(), "{\"iteration\":2}");
        LeasedTurn taken = leases.takeOver(seen, second, T0.plus(LEASE), T0.plus(LEASE.multipliedBy(2)))
                .orElseThrow();

        assertThat(seen.state()).isNotEqualTo("{\"iteration\":2}");
        assertThat(taken.state()).as("what the taker goes on from").isEqualTo("{\"iteration\":2}");
    }

    @Test
    void a_restarted_instance_makes_its_previous_boots_turns_orphaned_at_once_and_no_other_instances() {
        LeasedTurn mine = opened(first, T0);
        LeasedTurn theirs = opened(second, T0);
        InstanceIdentity restarted = new InstanceIdentity(first.instanceId(), Ids.newId());

        assertThat(leases.expireEarlierBoots(restarted, T0.plusSeconds(1))).isGreaterThanOrEqualTo(1);

        assertThat(orphanedIds(T0.plusSeconds(1))).contains(mine.turnId()).doesNotContain(theirs.turnId());
    }

    @Test
    void a_closed_lease_is_gone_and_closing_under_a_lost_fence_changes_nothing() {
        LeasedTurn turn = opened(first, T0);
        LeasedTurn taken = leases.takeOver(turn, second, T0.plus(LEASE), T0.plus(LEASE.multipliedBy(2)))
                .orElseThrow();

        assertThat(leases.close(turn.fence())).isFalse();
        assertThat(orphanedIds(T0.plus(Duration.ofHours(1)))).contains(turn.turnId());
        assertThat(leases.close(taken.fence())).isTrue();
        assertThat(orphanedIds(T0.plus(Duration.ofHours(1)))).doesNotContain(turn.turnId());
    }

    private LeasedTurn opened(InstanceIdentity owner, Instant at) {
        return opened(owner, at, null);
    }

    private LeasedTurn opened(InstanceIdentity owner, Instant at, Session session) {
        LeasedTurn turn = unopened(owner, at, session);
        leases.open(turn);
        return turn;
    }

    private static LeasedTurn unopened(InstanceIdentity owner, Instant at, Session session) {
        String sessionId = session == null ? Ids.newId() : session.id();
        String userId = session == null ? "ann" : session.userId();
        return new LeasedTurn(
                Ids.newId(),
                1,
                "tenant-1",
                userId,
                sessionId,
                "req-" + Ids.newId(),
                "tasks",
                "{\"userId\":\"" + userId + "\"}",
                owner,
                at.plus(LEASE),
                at,
                "{\"iteration\":0}",
                "1:t:" + userId,
                "key-" + sessionId);
    }

    private List<String> orphanedIds(Instant now) {
        return leases.orphaned(now, 1000).stream().map(LeasedTurn::turnId).toList();
    }

    private LeasedTurn orphaned(Instant now, String turnId) {
        return leases.orphaned(now, 1000).stream()
                .filter(t -> t.turnId().equals(turnId))
                .findFirst()
                .orElseThrow();
    }

    private Session session() {
        Session session = Session.start(Ids.newId(), "tenant-1", "user-" + Ids.newId(), "tasks", null, T0);
        conversations.createSession(session);
        return session;
    }

    private static ToolCallRecord toolCall(Session session) {
        Instant at = T0.truncatedTo(ChronoUnit.MILLIS);
        return new ToolCallRecord(
                Ids.newId(),
                session.id(),
                null,
                "add_task",
                "{}",
                "{\"ok\":true}",
                ToolCallState.SUCCEEDED,
                null,
                at,
                at,
                3);
    }

    private static TurnRecord answer(Session session, TurnFence fence) {
        Message message = new Message(
                Ids.newId(),
                session.id(),
                session.userId(),
                0,
                MessageRole.ASSISTANT,
                "done",
                MessageStatus.COMPLETE,
                "sim",
                T0);
        return new TurnRecord(message, List.of(), List.of(), List.of(), List.of(), fence);
    }
}
