package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.turn.TurnResume;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ApprovalDecisionsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T05:00:00Z");

    private static ToolApproval held(String reason, ApprovalStatus status, String comment) {
        return new ToolApproval(
                "a1",
                "turn-1",
                0,
                "acme",
                "alice",
                "s1",
                "c1",
                "payments__charge_card",
                "{}",
                reason,
                null,
                status,
                NOW,
                NOW.plusSeconds(3600),
                status == ApprovalStatus.PENDING ? null : NOW,
                status == ApprovalStatus.DENIED ? "alice" : null,
                null,
                comment);
    }

    @Test
    void a_call_whose_outcome_is_unknown_runs_again_when_approved() {
        TurnResume.ToolDecision d = ApprovalDecisions.decision(
                held(UnknownOutcomes.reason("payments__charge_card"), ApprovalStatus.APPROVED, null));

        assertThat(d).isInstanceOf(TurnResume.ToolDecision.Approve.class);
        assertThat(d.call().id()).isEqualTo("c1");
    }

    @Test
    void skipping_a_call_whose_outcome_is_unknown_tells_the_model_it_may_have_happened_not_that_it_did_not_run() {
        TurnResume.ToolDecision denied = ApprovalDecisions.decision(
                held(UnknownOutcomes.reason("payments__charge_card"), ApprovalStatus.DENIED, "I'll check my bank"));
        TurnResume.ToolDecision expired = ApprovalDecisions.decision(
                held(UnknownOutcomes.reason("payments__charge_card"), ApprovalStatus.EXPIRED, null));

        assertThat(denied).isInstanceOfSatisfying(TurnResume.ToolDecision.Deny.class, deny -> {
            assertThat(deny.error().code()).isEqualTo("tool_outcome_unknown");
            assertThat(deny.error().message())
                    .contains("may or may not have taken effect")
                    .contains("the user chose to skip it")
                    .contains("I'll check my bank");
        });
        assertThat(expired)
                .isInstanceOfSatisfying(
                        TurnResume.ToolDecision.Deny.class,
                        deny -> assertThat(deny.error().message()).contains("nobody decided in time"));
    }

    @Test
    void a_call_held_by_the_policy_is_denied_as_before() {
        TurnResume.ToolDecision d =
                ApprovalDecisions.decision(held("payments__charge_card is destructive", ApprovalStatus.DENIED, null));

        assertThat(d)
                .isInstanceOfSatisfying(
                        TurnResume.ToolDecision.Deny.class,
                        deny -> assertThat(deny.error().code()).isEqualTo("approval_denied"));
    }
}
