package dev.baton.core.turn;

import static dev.baton.core.testing.ScriptedModel.call;
import static dev.baton.core.testing.ScriptedModel.text;
import static dev.baton.core.testing.ScriptedModel.toolCalls;
import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.principal;
import static dev.baton.core.testing.TestTools.source;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.testing.ScriptedModel;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.ToolJson;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A turn that stops before a tool call needing the user's approval and goes on from its stored state: the state is
 * carried as JSON text (as the runtime stores it) and resumed by another runner, as on another instance.
 */
class TurnApprovalTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00.123456Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String USER = "user-1";
    private static final String SESSION = "session-1";
    private static final BigDecimal PRICE = new BigDecimal("0.000150");
    private static final CostCalculator COSTS = (provider, model, usage) -> PRICE;
    private static final TokenCounter WORDS = text -> text.split("\\s+").length;
    private static final TurnLimits LIMITS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final List<String> deleted = new CopyOnWriteArrayList<>();
    private final List<String> listed = new CopyOnWriteArrayList<>();
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private final HoldDestructive approvals = new HoldDestructive();

    private final Tool deleteTask = new Tool() {
        private final ToolDefinition definition = new ToolDefinition(
                "delete_task",
                "Deletes a task",
                objectSchema("{\"taskId\":{\"type\":\"string\",\"minLength\":1}}", "taskId"),
                Set.of("tasks:write:self"),
                null,
                true);

        @Override
        public ToolDefinition definition() {
            return definition;
        }

        @Override
        public JsonNode execute(JsonNode arguments, ToolContext context) {
            deleted.add(arguments.get("taskId").asText());
            keys.add(context.idempotencyKey());
            return json("{\"deleted\":true,\"taskId\":" + arguments.get("taskId") + "}");
        }

        /** Reads as the caller, as a real tool reads its domain; throws for "boom" as a broken lookup would. */
        @Override
        public Optional<String> summary(JsonNode arguments, ToolContext context) {
            String id = arguments.get("taskId").asText();
            if (id.equals("boom")) throw new IllegalStateException("the task store is down");
            return Optional.of(
                    "  Delete task " + id + "\n of " + context.principal().userId() + " ");
        }
    };
    private final Tool listTasks =
            dev.baton.core.testing.TestTools.tool("list_tasks", objectSchema("{}"), Set.of(), null, (args, ctx) -> {
                listed.add("list");
                keys.add(ctx.idempotencyKey());
                return json("{\"tasks\":[{\"id\":\"t1\"}]}");
            });

    TurnApprovalTest() {
        store.createSession(Session.start(SESSION, "default", USER, "helper", null, NOW));
    }

    /** Holds every destructive call and keeps the paused state as the runtime does: JSON text. */
    static final class HoldDestructive implements ToolApprovals {
        String storedState;
        List<Held> held = List.of();
        final List<Pending> pending = new ArrayList<>();
        /** Holds every call, not only destructive ones (a tool without a summary gets held too). */
        boolean holdAll;

        @Override
        public Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool, ToolCallRequest call) {
            return tool.destructive() || holdAll ? Optional.of(tool.name() + " is destructive") : Optional.empty();
        }

        @Override
        public List<Pending> pause(Pause pause) {
            storedState = TurnStateCodec.encode(pause.state());
            held = pause.held();
            for (Held h : pause.held()) {
                pending.add(new Pending(
                        "approval-" + h.call().id(),
                        h.call().id(),
                        h.call().name(),
                        ToolJson.argumentsForDisplay(h.call().argumentsJson()),
                        h.reason(),
                        NOW.plus(Duration.ofHours(24)),
                        h.summary()));
            }
            return List.copyOf(pending);
        }
    }

    private TurnRunner runner(ScriptedModel model) {
        return new TurnRunner(
                        store,
                        model,
                        new ToolCatalog(List.of(source(deleteTask, listTasks))),
                        WORDS,
                        COSTS,
                        CLOCK,
                        ModulePipeline.none(CLOCK))
                .withApprovals(approvals);
    }

    private TurnRequest request(String content) {
        Session session = store.findSession(USER, SESSION).orElseThrow();
        return new TurnRequest(
                "req-1",
                principal("tasks:write:self"),
                session,
                agent(List.of("delete_task", "list_tasks"), LIMITS),
                content,
                new Cancellation());
    }

    /** The request a decision sends, after the paused state travelled as JSON text. */
    private TurnRequest resuming(TurnResume.ToolDecision... decisions) {
        TurnState state = TurnStateCodec.decode(approvals.storedState);
        return new TurnRequest(
                        "req-2",
                        principal("tasks:write:self"),
                        store.findSession(USER, SESSION).orElseThrow(),
                        agent(List.of("delete_task", "list_tasks"), LIMITS),
                        "delete t1 and list",
                        new Cancellation())
                .resuming(new TurnResume(state, List.of(decisions)));
    }

    private static ToolCallRequest heldCall(String args) {
        return call("c1", "delete_task", args);
    }

    private TurnOutcome pauseOnDelete(ScriptedModel model, List<TurnEvent> events) {
        return runner(model).run(request("delete t1 and list"), events::add);
    }

    @Test
    void a_call_that_needs_approval_stops_the_turn_before_it_runs_while_the_other_calls_of_the_reply_run() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "delete_task", "{\"taskId\":\"t1\"}"), call("c2", "list_tasks", "{}")));
        List<TurnEvent> events = new ArrayList<>();

        TurnOutcome outcome = pauseOnDelete(model, events);

        assertThat(deleted).isEmpty();
        assertThat(listed).hasSize(1);
        assertThat(events)
                .extracting(e -> e.getClass().getSimpleName())
                .containsExactly(
                        "Started", "ToolCallStarted", "ToolCallFinished", "ApprovalRequired", "AwaitingApproval");
        TurnEvent.ApprovalRequired required = (TurnEvent.ApprovalRequired) events.get(3);
        assertThat(required.callId()).isEqualTo("approval-c1");
        assertThat(required.toolCallId()).isEqualTo("c1");
        assertThat(required.name()).isEqualTo("delete_task");
        assertThat(required.arguments()).isEqualTo(json("{\"taskId\":\"t1\"}"));
        assertThat(required.reason()).isEqualTo("delete_task is destructive");
        assertThat(required.expiresAt()).isEqualTo(NOW.plus(Duration.ofHours(24)));
        assertThat(required.summary())
                .as("the tool's summary, asked as the caller when the call was held, on one line")
                .isEqualTo("Delete task t1 of user-1");
        assertThat(approvals.held).extracting(ToolApprovals.Held::summary).containsExactly("Delete task t1 of user-1");
        TurnEvent.AwaitingApproval paused = outcome.awaitingApproval().orElseThrow();
        assertThat(paused.pending()).containsExactly(required);
        assertThat(paused.toolsCalled()).containsExactly("list_tasks");
        assertThat(outcome.succeeded()).isFalse();
        assertThat(outcome.failure()).isEmpty();
        assertThat(outcome.assistantMessage()).isNull();
        assertThat(outcome.usage().costUsd()).isEqualTo(PRICE);

        TurnState state = TurnStateCodec.decode(approvals.storedState);
        assertThat(state.pendingToolCalls()).containsExactly(heldCall("{\"taskId\":\"t1\"}"));
        assertThat(state.turnId()).isEqualTo(((TurnEvent.Started) events.getFirst()).turnId());
        assertThat(store.listMessages(USER, SESSION, null, 10))
                .as("only the user message: the answer is stored when the turn ends")
                .extracting(Message::role)
                .containsExactly(MessageRole.USER);
        assertThat(store.toolCallRows(SESSION))
                .as("the call that ran is in the audit trail already")
                .extracting(ToolCallRecord::toolName, ToolCallRecord::messageId)
                .containsExactly(tuple("list_tasks", null));
    }

    @Test
    void an_approved_call_runs_with_the_decided_arguments_and_the_turn_ends_once_with_every_call_linked() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "delete_task", "{\"taskId\":\"t1\"}"), call("c2", "list_tasks", "{}")),
                text("Deleted it."));
        pauseOnDelete(model, new ArrayList<>());
        List<TurnEvent> events = new ArrayList<>();

        TurnOutcome outcome = runner(model)
                .run(
                        resuming(new TurnResume.ToolDecision.Approve("approval-c1", heldCall("{\"taskId\":\"t2\"}"))),
                        events::add);

        assertThat(outcome.succeeded()).isTrue();
        assertThat(deleted).containsExactly("t2");
        String turnId = TurnStateCodec.decode(approvals.storedState).turnId();
        assertThat(keys)
                .as("each call's idempotency key is its turn's and its own, also when the turn goes on later")
                .containsExactly(
                        dev.baton.core.id.CallKeys.toolCall(turnId, "c2"),
                        dev.baton.core.id.CallKeys.toolCall(turnId, "c1"));
        assertThat(events)
                .extracting(e -> e.getClass().getSimpleName())
                .startsWith("Started", "ToolCallStarted", "ToolCallFinished", "Chunk")
                .endsWith("Done")
                .doesNotContain("ApprovalRequired");
        assertThat(((TurnEvent.Started) events.getFirst()).turnId())
                .isEqualTo(TurnStateCodec.decode(approvals.storedState).turnId());
        assertThat(((TurnEvent.Done) outcome.terminal()).toolsCalled()).containsExactly("list_tasks", "delete_task");
        // the model reads every result of its reply, in the order it made the calls
        assertThat(model.requests().get(1).messages().stream()
                        .filter(m -> m instanceof ChatMessage.ToolResult)
                        .map(m -> ((ChatMessage.ToolResult) m).toolCallId()))
                .containsExactly("c1", "c2");
        assertThat(store.listMessages(USER, SESSION, null, 10))
                .extracting(Message::role, Message::content, Message::status)
                .containsExactly(
                        tuple(MessageRole.USER, "delete t1 and list", MessageStatus.COMPLETE),
                        tuple(MessageRole.ASSISTANT, "Deleted it.", MessageStatus.COMPLETE));
        String answerId = outcome.assistantMessage().id();
        assertThat(store.toolCallRows(SESSION))
                .extracting(
                        ToolCallRecord::id, ToolCallRecord::toolArgs, ToolCallRecord::state, ToolCallRecord::messageId)
                .containsExactlyInAnyOrder(
                        tuple(store.toolCallRows(SESSION).getFirst().id(), "{}", ToolCallState.SUCCEEDED, answerId),
                        tuple("approval-c1", "{\"taskId\":\"t2\"}", ToolCallState.SUCCEEDED, answerId));
        assertThat(store.usageRows(SESSION))
                .as("both model calls, linked to the one answer")
                .hasSize(2)
                .allSatisfy(u -> assertThat(u.messageId()).isEqualTo(answerId));
        assertThat(store.findSession(USER, SESSION).orElseThrow().toolCallCount())
                .isEqualTo(2);
    }

    @Test
    void a_denied_call_never_runs_and_the_model_reads_the_denial_as_the_calls_error() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "delete_task", "{\"taskId\":\"t1\"}")), text("I did not delete it."));
        pauseOnDelete(model, new ArrayList<>());
        ToolError denial = new ToolError("approval_denied", "The user denied this call: keep it.");

        TurnOutcome outcome = runner(model)
                .run(
                        resuming(new TurnResume.ToolDecision.Deny(
                                "approval-c1", heldCall("{\"taskId\":\"t1\"}"), denial)),
                        e -> {});

        assertThat(outcome.succeeded()).isTrue();
        assertThat(deleted).isEmpty();
        assertThat(model.requests().get(1).messages().getLast())
                .isEqualTo(new ChatMessage.ToolResult("c1", "delete_task", ToolJson.errorContent(denial)));
        assertThat(store.toolCallRows(SESSION)).singleElement().satisfies(row -> {
            assertThat(row.id()).isEqualTo("approval-c1");
            assertThat(row.state()).isEqualTo(ToolCallState.DENIED);
            assertThat(row.errorMessage()).isEqualTo("approval_denied: The user denied this call: keep it.");
            assertThat(row.messageId()).isEqualTo(outcome.assistantMessage().id());
        });
    }

    @Test
    void a_call_the_user_is_asked_about_on_going_on_stops_the_turn_again_and_once_approved_runs_with_its_first_key() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "delete_task", "{\"taskId\":\"t1\"}"), call("c2", "list_tasks", "{}")),
                text("Deleted it."));
        // both calls left pending, as a turn whose instance died while they ran leaves them
        approvals.holdAll = true;
        pauseOnDelete(model, new ArrayList<>());
        approvals.holdAll = false;
        approvals.pending.clear();
        String turnId = TurnStateCodec.decode(approvals.storedState).turnId();
        List<TurnEvent> events = new ArrayList<>();

        TurnOutcome asked = runner(model)
                .run(
                        resuming(
                                new TurnResume.ToolDecision.Ask(
                                        "r1", heldCall("{\"taskId\":\"t1\"}"), "the outcome of delete_task is unknown"),
                                new TurnResume.ToolDecision.Approve("r2", call("c2", "list_tasks", "{}"))),
                        events::add);

        assertThat(deleted).as("asked about, not run").isEmpty();
        assertThat(listed).as("the decided call ran").hasSize(1);
        assertThat(events)
                .extracting(e -> e.getClass().getSimpleName())
                .containsExactly(
                        "Started", "ToolCallStarted", "ToolCallFinished", "ApprovalRequired", "AwaitingApproval");
        TurnEvent.ApprovalRequired required = (TurnEvent.ApprovalRequired) events.get(3);
        assertThat(required.toolCallId()).isEqualTo("c1");
        assertThat(required.reason()).isEqualTo("the outcome of delete_task is unknown");
        assertThat(required.summary()).isEqualTo("Delete task t1 of user-1");
        assertThat(asked.awaitingApproval()).isPresent();
        assertThat(model.requests()).as("the model waits for the user too").hasSize(1);
        TurnState pausedAgain = TurnStateCodec.decode(approvals.storedState);
        assertThat(pausedAgain.turnId()).isEqualTo(turnId);
        assertThat(pausedAgain.pendingToolCalls()).containsExactly(heldCall("{\"taskId\":\"t1\"}"));

        TurnOutcome outcome = runner(model)
                .run(
                        resuming(new TurnResume.ToolDecision.Approve("approval-c1", heldCall("{\"taskId\":\"t1\"}"))),
                        e -> {});

        assertThat(outcome.succeeded()).isTrue();
        assertThat(deleted).containsExactly("t1");
        assertThat(keys)
                .as("the call run again carries the key its first attempt had")
                .endsWith(dev.baton.core.id.CallKeys.toolCall(turnId, "c1"));
        // the model reads every result of its reply in the order it made the calls, whenever each was decided
        assertThat(model.requests().get(1).messages().stream()
                        .filter(m -> m instanceof ChatMessage.ToolResult)
                        .map(m -> ((ChatMessage.ToolResult) m).toolCallId()))
                .containsExactly("c1", "c2");
    }

    @Test
    void a_paused_turn_closed_without_the_model_stores_its_answer_so_far_and_the_refused_call() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c2", "list_tasks", "{}")), toolCalls(call("c1", "delete_task", "{\"taskId\":\"t1\"}")));
        pauseOnDelete(model, new ArrayList<>());
        TurnEvent.Failed reason = new TurnEvent.Failed("approval_denied", "a new message denied it", false);

        TurnOutcome closed = runner(model)
                .closePaused(
                        resuming(new TurnResume.ToolDecision.Deny(
                                "approval-c1",
                                heldCall("{\"taskId\":\"t1\"}"),
                                new ToolError("approval_denied", "The user sent a new message instead."))),
                        MessageStatus.CANCELLED,
                        reason);

        assertThat(closed.terminal()).isEqualTo(reason);
        assertThat(model.requests()).hasSize(2);
        assertThat(deleted).isEmpty();
        assertThat(store.listMessages(USER, SESSION, null, 10))
                .extracting(Message::role, Message::status)
                .containsExactly(
                        tuple(MessageRole.USER, MessageStatus.COMPLETE),
                        tuple(MessageRole.ASSISTANT, MessageStatus.CANCELLED));
        assertThat(store.toolCallRows(SESSION))
                .extracting(ToolCallRecord::toolName, ToolCallRecord::state)
                .containsExactly(
                        tuple("list_tasks", ToolCallState.SUCCEEDED), tuple("delete_task", ToolCallState.DENIED));
        assertThat(store.usageRows(SESSION)).hasSize(2);
    }

    @Test
    void a_call_that_would_be_refused_anyway_is_not_held_for_approval() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "delete_task", "{\"nope\":1}")), text("Those arguments were wrong."));

        TurnOutcome outcome = runner(model).run(request("delete"), e -> {});

        assertThat(outcome.succeeded()).isTrue();
        assertThat(approvals.storedState).isNull();
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .extracting(ToolCallRecord::state)
                .isEqualTo(ToolCallState.INVALID_ARGUMENTS);
    }

    @Test
    void a_held_call_whose_tool_has_no_summary_or_fails_to_give_one_carries_none_and_still_waits() {
        approvals.holdAll = true;
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "delete_task", "{\"taskId\":\"boom\"}"), call("c2", "list_tasks", "{}")));
        List<TurnEvent> events = new ArrayList<>();

        TurnOutcome outcome = pauseOnDelete(model, events);

        assertThat(deleted).isEmpty();
        assertThat(listed).isEmpty();
        assertThat(outcome.awaitingApproval().orElseThrow().pending())
                .extracting(TurnEvent.ApprovalRequired::name, TurnEvent.ApprovalRequired::summary)
                .containsExactly(tuple("delete_task", null), tuple("list_tasks", null));
    }

    @Test
    void an_over_long_summary_is_cut_to_one_line() {
        assertThat(HeldCallSummaries.oneLine("a\n\tb  " + "x".repeat(400)))
                .startsWith("a b x")
                .endsWith("…")
                .hasSize(HeldCallSummaries.MAX_LENGTH);
    }
}
