package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Baton;
import dev.baton.runtime.OpenSessions;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.testing.SettableClock;
import dev.baton.runtime.tool.AnnotatedTools;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.runtime.tool.Param;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease on a decision's claim of a paused turn. The instance that claimed a turn "dies" here by never going on
 * with it: the test claims the turn straight in the {@link ApprovalStore}, as that instance did, and leaves it. A
 * retried decision takes the turn over only once the claim's lease ran out (the clock is moved, nothing sleeps), and
 * the approved call runs exactly once overall: not again when the dead instance recorded it, not again when it had
 * started it without a record (the model is told the outcome is unknown), and now when it never started. A turn
 * nobody took over by its calls' expiry is ended by the sweep, which runs nothing.
 */
class ApprovalClaimLeaseTest {
    private static final Instant START = Instant.parse("2026-03-01T08:00:00Z");
    private static final Principal ALICE =
            Principal.of("t1", "alice", Set.of(Sessions.READ, Sessions.WRITE, "files:write"));
    /** Longer than any claim: the turn's time left (the default 45 s request timeout at most) and the margin. */
    private static final Duration PAST_THE_LEASE = Duration.ofMinutes(2);

    private final SettableClock clock = new SettableClock(START);
    private final InMemoryConversationStore conversations = new InMemoryConversationStore();
    private final ApprovalStore approvals = ApprovalStore.inMemory();
    private final List<String> removed = new CopyOnWriteArrayList<>();
    private Baton baton;
    private String session;

    /** The destructive tool the model asks for, and the harmless one it asks for alongside. */
    public final class Files {
        @BatonTool(
                name = "remove_file",
                description = "Removes a file.",
                permissions = "files:write",
                destructive = true)
        public String remove(@Param(name = "path", description = "The file") String path) {
            removed.add(path);
            return "removed " + path;
        }

        @BatonTool(name = "list_files", description = "Lists the files.")
        public List<String> list() {
            return List.of("a.txt", "b.txt");
        }
    }

    @BeforeEach
    void start() {
        baton = Baton.builder()
                .clock(clock)
                .conversationStore(conversations)
                .sessionStore(new OpenSessions(conversations::createSession))
                .approvalStore(approvals)
                .models(new ApprovalsTest.RemovingModel())
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AgentDefinition.of(
                        "files", "You manage files.", "scripted:m", List.of("remove_file", "list_files")))))
                .tools(AnnotatedTools.named("files", new Files()))
                .build();
        session = baton.sessions().start(ALICE, "files", null).id();
    }

    @AfterEach
    void close() {
        baton.close();
    }

    /** Pauses "remove a.txt"; returns the held call. */
    private ToolApproval paused() {
        SendResult.Ran ran = (SendResult.Ran)
                baton.conversations().send(ALICE, session, "remove a.txt", SendOptions.withNewRequestId(), e -> {});
        assertThat(ran.outcome().awaitingApproval()).isPresent();
        return baton.approvals().pending(ALICE, session).getFirst();
    }

    /** An instance approves the call, which claims the turn for a minute, and dies before going on with it. */
    private void claimedByAnInstanceThatDies(ToolApproval call) {
        ApprovalStore.Decided decided = approvals.decide(
                call.callId(),
                new ApprovalStore.Decision(ApprovalStatus.APPROVED, "alice", null, null),
                clock.instant(),
                clock.instant().plus(Duration.ofMinutes(1)));
        assertThat(decided).isInstanceOf(ApprovalStore.Resumable.class);
    }

    private ApprovalResult retry(ToolApproval call) {
        return baton.approvals()
                .decide(
                        ALICE,
                        session,
                        call.callId(),
                        ApprovalDecision.approval(),
                        SendOptions.withNewRequestId(),
                        TurnListener.NONE);
    }

    private static TurnOutcome outcome(ApprovalResult result) {
        assertThat(result).isInstanceOf(ApprovalResult.Resumed.class);
        return ((ApprovalResult.Resumed) result).ran().outcome();
    }

    private static String code(Throwable e) {
        return ((RefusalException) e).refusal().code();
    }

    private ToolCallRecord row(ToolApproval call) {
        List<ToolCallRecord> rows = conversations.toolCallsWithIds("alice", session, List.of(call.callId()));
        assertThat(rows).as("one tool_calls row for the held call").hasSize(1);
        return rows.getFirst();
    }

    @Test
    void a_claim_whose_instance_died_is_taken_over_by_a_retried_decision_once_its_lease_ran_out() {
        ToolApproval call = paused();
        claimedByAnInstanceThatDies(call);

        // within the lease the claim may still be going on elsewhere: the retry is refused, nothing runs
        assertThatThrownBy(() -> retry(call)).satisfies(e -> assertThat(code(e)).isEqualTo("approval_already_decided"));
        clock.advance(PAST_THE_LEASE);

        TurnOutcome outcome = outcome(retry(call));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(removed).containsExactly("a.txt");
        assertThat(outcome.answer()).contains("remove_file=\"removed a.txt\"");
        assertThat(row(call).state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(row(call).messageId()).isEqualTo(outcome.assistantMessage().id());
        // the turn went on to its end here: its claim is released, and there is nothing to take over any more
        clock.advance(PAST_THE_LEASE);
        assertThatThrownBy(() -> retry(call)).satisfies(e -> assertThat(code(e)).isEqualTo("approval_already_decided"));
        assertThat(removed).containsExactly("a.txt");
    }

    @Test
    void a_call_the_dead_instance_ran_and_recorded_is_not_run_again_and_the_model_reads_its_result() {
        ToolApproval call = paused();
        claimedByAnInstanceThatDies(call);
        approvals.runStarting(call.turnId(), List.of(call.callId()), clock.instant());
        conversations.recordToolCalls(
                "alice",
                List.of(new ToolCallRecord(
                        call.callId(),
                        session,
                        null,
                        "remove_file",
                        call.arguments(),
                        "\"removed a.txt\"",
                        ToolCallState.SUCCEEDED,
                        null,
                        clock.instant(),
                        clock.instant(),
                        3)));
        clock.advance(PAST_THE_LEASE);

        TurnOutcome outcome = outcome(retry(call));

        assertThat(removed).as("not run a second time").isEmpty();
        assertThat(outcome.answer()).contains("remove_file=\"removed a.txt\"");
        assertThat(row(call).messageId())
                .as("the recorded row, linked to the answer")
                .isEqualTo(outcome.assistantMessage().id());
    }

    @Test
    void a_call_whose_run_started_but_left_no_record_is_not_run_again_and_the_model_is_told() {
        ToolApproval call = paused();
        claimedByAnInstanceThatDies(call);
        approvals.runStarting(call.turnId(), List.of(call.callId()), clock.instant());
        clock.advance(PAST_THE_LEASE);

        List<TurnEvent> events = new CopyOnWriteArrayList<>();
        ApprovalResult result = baton.approvals()
                .decide(
                        ALICE,
                        session,
                        call.callId(),
                        ApprovalDecision.approval(),
                        SendOptions.withNewRequestId(),
                        events::add);
        TurnOutcome outcome = outcome(result);

        assertThat(removed).isEmpty();
        assertThat(outcome.answer()).contains("tool_outcome_unknown");
        assertThat(row(call).state()).isEqualTo(ToolCallState.FAILED);
        // the client hears the held call end as failed, with the reason
        assertThat(events)
                .filteredOn(e ->
                        e instanceof TurnEvent.ToolCallFinished f && f.name().equals("remove_file"))
                .singleElement()
                .satisfies(e -> {
                    assertThat(((TurnEvent.ToolCallFinished) e).ok()).isFalse();
                    assertThat(((TurnEvent.ToolCallFinished) e).error()).contains("tool_outcome_unknown");
                });
    }

    @Test
    void a_turn_nobody_took_over_before_its_expiry_is_ended_by_the_sweep_without_running_anything() {
        ToolApproval call = paused();
        claimedByAnInstanceThatDies(call);
        clock.advance(PAST_THE_LEASE);
        // past the lease, but the user may still retry until the calls' expiry
        assertThat(baton.approvals().expire()).isZero();
        clock.advance(Duration.ofHours(24));

        assertThat(baton.approvals().expire()).isEqualTo(1);

        assertThat(removed).isEmpty();
        assertThat(row(call).state()).as("stored as not run").isEqualTo(ToolCallState.CANCELLED);
        var answer = conversations.recentMessages("alice", session, 1).getFirst();
        assertThat(answer.status()).isEqualTo(dev.baton.core.conversation.MessageStatus.CANCELLED);
        assertThat(row(call).messageId()).isEqualTo(answer.id());
        assertThat(baton.approvals().expire()).as("once").isZero();
        assertThatThrownBy(() -> retry(call)).satisfies(e -> assertThat(code(e)).isEqualTo("approval_already_decided"));
        assertThat(removed).isEmpty();
    }
}
