package dev.baton.server.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.server.http.Json;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskProgressTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-04T09:00:00Z"), ZoneOffset.UTC);
    static final TurnEvent.Usage USAGE = new TurnEvent.Usage(1, 1, 0, BigDecimal.ZERO);

    static TaskProgress started() {
        TaskProgress p = new TaskProgress(CLOCK);
        p.apply(new TurnEvent.Started("turn-1", "session-1", "req-1"));
        return p;
    }

    @Test
    void the_first_event_is_the_working_task_with_the_turn_as_task_and_the_session_as_context() {
        TaskProgress p = new TaskProgress(CLOCK);

        List<ObjectNode> events = p.apply(new TurnEvent.Started("turn-1", "session-1", "req-1"));

        assertThat(events).hasSize(1);
        assertThat(events.getFirst().at("/task/id").asText()).isEqualTo("turn-1");
        assertThat(events.getFirst().at("/task/contextId").asText()).isEqualTo("session-1");
        assertThat(events.getFirst().at("/task/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
    }

    @Test
    void chunks_become_one_answer_artifact_and_done_completes_the_task() {
        TaskProgress p = started();
        List<ObjectNode> first = p.apply(new TurnEvent.Chunk("Hello"));
        List<ObjectNode> second = p.apply(new TurnEvent.Chunk(" there"));
        List<ObjectNode> done = p.apply(new TurnEvent.Done("m1", "default", USAGE, 5, List.of()));

        assertThat(first.getFirst().at("/artifactUpdate/append").asBoolean()).isFalse();
        assertThat(second.getFirst().at("/artifactUpdate/append").asBoolean()).isTrue();
        assertThat(done.getLast().at("/statusUpdate/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(p.task().at("/artifacts/0/parts/0/text").asText()).isEqualTo("Hello there");
        assertThat(p.task().at("/status/message/parts/0/text").asText()).isEqualTo("Hello there");
    }

    @Test
    void an_approval_pause_is_input_required_naming_the_held_calls() {
        TaskProgress p = started();
        ObjectNode args = Json.MAPPER.createObjectNode().put("taskId", "t1");
        p.apply(new TurnEvent.ApprovalRequired(
                "call-1", "c1", "delete_task", args, "it deletes", Instant.parse("2026-05-05T09:00:00Z")));
        p.apply(new TurnEvent.AwaitingApproval(
                "turn-1",
                List.of(new TurnEvent.ApprovalRequired(
                        "call-1", "c1", "delete_task", args, "it deletes", Instant.parse("2026-05-05T09:00:00Z"))),
                "default",
                USAGE,
                5,
                List.of()));

        assertThat(p.state()).isEqualTo(A2aWire.State.INPUT_REQUIRED);
        assertThat(p.task().at("/status/message/parts/0/text").asText()).contains("delete_task");
        assertThat(p.task()
                        .at("/status/message/parts/1/data/pendingApprovals/0/callId")
                        .asText())
                .isEqualTo("call-1");
    }

    @Test
    void a_resumed_turn_works_again_and_keeps_its_answer_so_far() {
        TaskProgress p = started();
        p.apply(new TurnEvent.Chunk("Let me check. "));
        p.apply(new TurnEvent.AwaitingApproval("turn-1", List.of(), "default", USAGE, 5, List.of()));

        List<ObjectNode> resumed = p.apply(new TurnEvent.Started("turn-1", "session-1", "req-2"));
        p.apply(new TurnEvent.Chunk("Deleted."));

        assertThat(resumed.getFirst().at("/statusUpdate/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(p.task().at("/artifacts/0/parts/0/text").asText()).isEqualTo("Let me check. Deleted.");
    }

    @Test
    void a_cancelled_or_superseded_turn_is_canceled_and_any_other_failure_failed() {
        TaskProgress cancelled = started();
        cancelled.apply(new TurnEvent.Failed("cancelled", "stopped", false));
        TaskProgress superseded = started();
        superseded.apply(new TurnEvent.Failed("approval_superseded", "a new message", false));
        TaskProgress failed = started();
        failed.apply(new TurnEvent.Failed("model_unavailable", "down", true));

        assertThat(cancelled.state()).isEqualTo(A2aWire.State.CANCELED);
        assertThat(superseded.state()).isEqualTo(A2aWire.State.CANCELED);
        assertThat(failed.state()).isEqualTo(A2aWire.State.FAILED);
        assertThat(failed.task().at("/status/message/parts/1/data/code").asText())
                .isEqualTo("model_unavailable");
    }
}
