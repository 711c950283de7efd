package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.runtime.approval.ApprovalStatus;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.runtime.approval.PausedTurn;
import dev.baton.runtime.approval.ToolApproval;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link ApprovalStore} must do, whatever keeps the paused turns: owner-scoped reads, one winner per
 * decision, the last decision of a turn claiming it, takeover of an abandoned claim, expiry and closing. Run by
 * baton-store-jdbc against SQLite and PostgreSQL and by baton-testkit against {@code ApprovalStore.inMemory()}.
 *
 * <p>Subclasses give the stores under test, which may be shared by all tests of the class: each test has its own users
 * and instants, far from the others'.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ApprovalStoreContract {
    private static final Duration DAY = Duration.ofHours(24);

    /** Where the paused turns' sessions are created (a database store may require them). */
    protected abstract ConversationStore conversations();

    /** The approval store under test. */
    protected abstract ApprovalStore approvals();

    /** A session of {@code user} with a turn paused at {@code at} holding {@code calls} calls. */
    protected PausedTurn pause(String user, Instant at, int calls) {
        Session session = Session.start(Ids.newId(), "tenant-1", user, "tasks", null, at);
        conversations().createSession(session);
        PausedTurn turn = new PausedTurn(
                Ids.newId(),
                "tenant-1",
                user,
                session.id(),
                "req-" + user,
                "{\"version\":1}",
                PausedTurn.Status.PAUSED,
                at,
                at.plus(DAY));
        List<ToolApproval> held = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            held.add(new ToolApproval(
                    Ids.newId(),
                    turn.turnId(),
                    i,
                    "tenant-1",
                    user,
                    session.id(),
                    "call_" + i,
                    "delete_task",
                    "{\"taskId\":\"t" + i + "\"}",
                    "delete_task is destructive",
                    i == 0 ? "Delete the task 'buy milk' (due 2030-01-02)" : null,
                    ApprovalStatus.PENDING,
                    at,
                    at.plus(DAY),
                    null,
                    null,
                    null,
                    null));
        }
        approvals().pause(turn, held);
        return turn;
    }

    private ToolApproval call(PausedTurn turn, int index) {
        return approvals().pending(turn.tenantId(), turn.userId(), turn.sessionId()).stream()
                .filter(a -> a.position() == index)
                .findFirst()
                .orElseThrow();
    }

    private static ApprovalStore.Decision approve(String by) {
        return new ApprovalStore.Decision(ApprovalStatus.APPROVED, by, null, null);
    }

    @Test
    void a_paused_turn_and_its_calls_are_read_back_only_by_their_owner() {
        Instant at = Instant.parse("2030-01-01T10:00:00Z");
        PausedTurn turn = pause("ann", at, 2);

        assertThat(approvals().pausedTurn("tenant-1", "ann", turn.sessionId())).contains(turn);
        assertThat(approvals().pending("tenant-1", "ann", turn.sessionId()))
                .extracting(ToolApproval::toolCallId, ToolApproval::status, ToolApproval::expiresAt)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("call_0", ApprovalStatus.PENDING, at.plus(DAY)),
                        org.assertj.core.groups.Tuple.tuple("call_1", ApprovalStatus.PENDING, at.plus(DAY)));
        String callId = call(turn, 0).callId();
        assertThat(approvals().find("tenant-1", "ann", turn.sessionId(), callId))
                .isPresent();
        assertThat(approvals().find("tenant-1", "bob", turn.sessionId(), callId))
                .isEmpty();
        assertThat(approvals().find("tenant-2", "ann", turn.sessionId(), callId))
                .isEmpty();
        assertThat(approvals().pausedTurn("tenant-1", "bob", turn.sessionId())).isEmpty();
        assertThat(approvals().pending("tenant-1", "bob", turn.sessionId())).isEmpty();
    }

    @Test
    void a_held_calls_summary_is_kept_as_held_and_through_its_decision_and_none_stays_none() {
        Instant at = Instant.parse("2030-01-15T10:00:00Z");
        PausedTurn turn = pause("eve", at, 2);

        assertThat(approvals().pending("tenant-1", "eve", turn.sessionId()))
                .extracting(ToolApproval::position, ToolApproval::summary)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, "Delete the task 'buy milk' (due 2030-01-02)"),
                        org.assertj.core.groups.Tuple.tuple(1, null));
        ApprovalStore.Decided decided = approvals().decide(call(turn, 0).callId(), approve("eve"), at.plusSeconds(5));

        assertThat(((ApprovalStore.Waiting) decided).decided().summary())
                .isEqualTo("Delete the task 'buy milk' (due 2030-01-02)");
        assertThat(approvals().sessionApprovals("tenant-1", turn.sessionId()))
                .extracting(ToolApproval::summary)
                .containsExactlyInAnyOrder("Delete the task 'buy milk' (due 2030-01-02)", null);
    }

    @Test
    void each_decision_is_recorded_once_and_the_last_one_claims_the_turn() {
        Instant at = Instant.parse("2030-02-01T10:00:00Z");
        PausedTurn turn = pause("cat", at, 2);
        ToolApproval first = call(turn, 0);
        ToolApproval second = call(turn, 1);
        Instant later = at.plusSeconds(60);

        ApprovalStore.Decided one = approvals()
                .decide(
                        first.callId(),
                        new ApprovalStore.Decision(ApprovalStatus.APPROVED, "cat", "{\"taskId\":\"t9\"}", "yes please"),
                        later);
        ApprovalStore.Decided again = approvals().decide(first.callId(), approve("cat"), later);
        ApprovalStore.Decided two = approvals()
                .decide(
                        second.callId(),
                        new ApprovalStore.Decision(ApprovalStatus.DENIED, "cat", null, "not that one"),
                        later);

        assertThat(one).isInstanceOf(ApprovalStore.Waiting.class);
        ApprovalStore.Waiting waiting = (ApprovalStore.Waiting) one;
        assertThat(waiting.stillPending()).extracting(ToolApproval::callId).containsExactly(second.callId());
        assertThat(waiting.decided().status()).isEqualTo(ApprovalStatus.APPROVED);
        assertThat(waiting.decided().decidedBy()).isEqualTo("cat");
        assertThat(waiting.decided().decidedAt()).isEqualTo(later);
        assertThat(waiting.decided().effectiveArguments()).isEqualTo("{\"taskId\":\"t9\"}");
        assertThat(waiting.decided().comment()).isEqualTo("yes please");
        assertThat(again).isInstanceOf(ApprovalStore.NotPending.class);
        assertThat(((ApprovalStore.NotPending) again).current().status()).isEqualTo(ApprovalStatus.APPROVED);
        assertThat(two).isInstanceOf(ApprovalStore.Resumable.class);
        ApprovalStore.Resumable resumable = (ApprovalStore.Resumable) two;
        assertThat(resumable.turn().status()).isEqualTo(PausedTurn.Status.RESUMED);
        assertThat(resumable.turn().state()).isEqualTo(turn.state());
        assertThat(resumable.calls())
                .extracting(ToolApproval::status)
                .containsExactly(ApprovalStatus.APPROVED, ApprovalStatus.DENIED);
        assertThat(approvals().pausedTurn("tenant-1", "cat", turn.sessionId())).isEmpty();
        assertThat(approvals().pending("tenant-1", "cat", turn.sessionId())).isEmpty();
    }

    @Test
    void of_many_racing_decisions_on_one_call_exactly_one_wins() throws Exception {
        Instant at = Instant.parse("2030-03-01T10:00:00Z");
        PausedTurn turn = pause("dan", at, 1);
        String callId = call(turn, 0).callId();

        List<ApprovalStore.Decided> results =
                race(8, i -> approvals().decide(callId, approve("dan"), at.plusSeconds(1)));

        assertThat(results)
                .filteredOn(r -> r instanceof ApprovalStore.Resumable)
                .hasSize(1);
        assertThat(results)
                .filteredOn(r -> r instanceof ApprovalStore.NotPending)
                .hasSize(7);
    }

    @Test
    void when_the_last_two_calls_of_a_turn_are_decided_at_once_exactly_one_decision_claims_the_turn() throws Exception {
        Instant at = Instant.parse("2030-04-01T10:00:00Z");
        PausedTurn turn = pause("eve", at, 2);
        List<String> ids = List.of(call(turn, 0).callId(), call(turn, 1).callId());

        List<ApprovalStore.Decided> results =
                race(2, i -> approvals().decide(ids.get(i), approve("eve"), at.plusSeconds(1)));

        assertThat(results)
                .filteredOn(r -> r instanceof ApprovalStore.Resumable)
                .hasSize(1);
        assertThat(results).filteredOn(r -> r instanceof ApprovalStore.Waiting).hasSize(1);
    }

    @Test
    void an_expired_call_cannot_be_decided_and_the_sweep_closes_its_turn_once() {
        Instant at = Instant.parse("2030-05-01T10:00:00Z");
        PausedTurn turn = pause("fay", at, 1);
        String callId = call(turn, 0).callId();
        Instant expired = at.plus(DAY);

        assertThat(approvals().expired(expired.minusMillis(1), 100))
                .extracting(PausedTurn::turnId)
                .doesNotContain(turn.turnId());
        assertThat(approvals().decide(callId, approve("fay"), expired)).isInstanceOf(ApprovalStore.NotPending.class);
        assertThat(approvals().expired(expired, 100))
                .extracting(PausedTurn::turnId)
                .contains(turn.turnId());

        var closed = approvals().close(turn.turnId(), ApprovalStatus.EXPIRED, null, "nobody decided", expired);

        assertThat(closed).isPresent();
        assertThat(closed.get().turn().status()).isEqualTo(PausedTurn.Status.CLOSED);
        assertThat(closed.get().calls()).singleElement().satisfies(a -> {
            assertThat(a.status()).isEqualTo(ApprovalStatus.EXPIRED);
            assertThat(a.decidedBy()).isNull();
            assertThat(a.decidedAt()).isEqualTo(expired);
        });
        assertThat(approvals().close(turn.turnId(), ApprovalStatus.EXPIRED, null, null, expired))
                .isEmpty();
        assertThat(approvals().expired(expired, 100))
                .extracting(PausedTurn::turnId)
                .doesNotContain(turn.turnId());
    }

    @Test
    void a_superseded_turn_takes_no_more_decisions_and_its_record_outlives_the_session() {
        Instant at = Instant.parse("2030-06-01T10:00:00Z");
        PausedTurn turn = pause("gus", at, 1);
        String callId = call(turn, 0).callId();

        approvals().close(turn.turnId(), ApprovalStatus.SUPERSEDED, "gus", "a new message", at.plusSeconds(5));

        ApprovalStore.Decided late = approvals().decide(callId, approve("gus"), at.plusSeconds(6));
        assertThat(late).isInstanceOf(ApprovalStore.NotPending.class);
        assertThat(((ApprovalStore.NotPending) late).current().status()).isEqualTo(ApprovalStatus.SUPERSEDED);

        assertThat(conversations().deleteSession("gus", turn.sessionId())).isTrue();
        assertThat(approvals().sessionApprovals("tenant-1", turn.sessionId()))
                .singleElement()
                .satisfies(a -> {
                    assertThat(a.status()).isEqualTo(ApprovalStatus.SUPERSEDED);
                    assertThat(a.decidedBy()).isEqualTo("gus");
                    assertThat(a.createdAt()).isEqualTo(at.truncatedTo(ChronoUnit.MICROS));
                });
        assertThat(approvals().sessionApprovals("tenant-2", turn.sessionId())).isEmpty();
    }

    @Test
    void a_claim_is_taken_over_only_after_its_lease_ran_out_by_exactly_one_instance_and_never_once_finished()
            throws Exception {
        Instant at = Instant.parse("2030-07-01T10:00:00Z");
        PausedTurn turn = pause("ida", at, 2);
        ToolApproval first = call(turn, 0);
        ToolApproval second = call(turn, 1);
        approvals().decide(first.callId(), approve("ida"), at, at.plusSeconds(60));
        var claimed = (ApprovalStore.Resumable)
                approvals().decide(second.callId(), approve("ida"), at.plusSeconds(1), at.plusSeconds(61));
        assertThat(claimed.turn().claimId()).isNotNull();
        assertThat(claimed.turn().claimedUntil()).isEqualTo(at.plusSeconds(61));
        assertThat(claimed.runStarted()).isEmpty();
        approvals().runStarting(turn.turnId(), List.of(first.callId()), at.plusSeconds(2));

        assertThat(approvals().reclaim(turn.turnId(), at.plusSeconds(60), at.plusSeconds(200)))
                .as("the claim still holds")
                .isEmpty();
        assertThat(approvals()
                        .turn("tenant-1", "ida", turn.turnId())
                        .orElseThrow()
                        .abandonedAt(at.plusSeconds(61)))
                .isTrue();
        assertThat(approvals().turn("tenant-1", "bob", turn.turnId())).isEmpty();
        assertThat(approvals().abandoned(at.plusSeconds(61), 100))
                .as("the user may still retry until the calls expire")
                .extracting(PausedTurn::turnId)
                .doesNotContain(turn.turnId());
        assertThat(approvals().abandoned(at.plus(DAY), 100))
                .extracting(PausedTurn::turnId)
                .contains(turn.turnId());

        List<Optional<ApprovalStore.Resumable>> takeovers =
                race(4, i -> approvals().reclaim(turn.turnId(), at.plusSeconds(61), at.plusSeconds(200)));

        List<ApprovalStore.Resumable> won =
                takeovers.stream().flatMap(Optional::stream).toList();
        assertThat(won).hasSize(1);
        ApprovalStore.Resumable takeover = won.getFirst();
        assertThat(takeover.turn().claimId()).isNotEqualTo(claimed.turn().claimId());
        assertThat(takeover.runStarted()).containsExactly(first.callId());
        assertThat(takeover.calls()).extracting(ToolApproval::status).containsOnly(ApprovalStatus.APPROVED);

        // the first claim's late release changes nothing; the takeover's own release ends the lease for good
        approvals().finish(turn.turnId(), claimed.turn().claimId());
        assertThat(approvals()
                        .turn("tenant-1", "ida", turn.turnId())
                        .orElseThrow()
                        .claimedUntil())
                .isEqualTo(at.plusSeconds(200));
        approvals().finish(turn.turnId(), takeover.turn().claimId());
        assertThat(approvals().reclaim(turn.turnId(), at.plusSeconds(10_000), at.plusSeconds(10_100)))
                .isEmpty();
        assertThat(approvals().abandoned(at.plus(DAY).plus(DAY), 100))
                .extracting(PausedTurn::turnId)
                .doesNotContain(turn.turnId());
    }

    private static <T> List<T> race(int threads, java.util.function.IntFunction<T> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int index = i;
                Callable<T> task = () -> {
                    start.await();
                    return work.apply(index);
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) results.add(f.get());
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
