package dev.baton.core.turn;

import static dev.baton.core.testing.ScriptedModel.call;
import static dev.baton.core.testing.ScriptedModel.failing;
import static dev.baton.core.testing.ScriptedModel.text;
import static dev.baton.core.testing.ScriptedModel.toolCalls;
import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.principal;
import static dev.baton.core.testing.TestTools.source;
import static dev.baton.core.testing.TestTools.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.hook.ModuleSource;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.testing.ScriptedModel;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The turn loop on its own: a scripted model, in-process tools and the in-memory store. */
class TurnRunnerTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00.123456Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String USER = "user-1";
    private static final String SESSION = "session-1";
    private static final BigDecimal PRICE = new BigDecimal("0.000150");
    private static final CostCalculator COSTS = (provider, model, usage) -> PRICE;
    private static final TokenCounter WORDS = text -> text.split("\\s+").length;
    private static final TurnLimits LIMITS = limits(5, 10);

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
    private final List<TurnCheckpoint> checkpoints = new CopyOnWriteArrayList<>();
    private final AtomicInteger executions = new AtomicInteger();

    private final Tool addTask = tool(
            "add_task",
            objectSchema("{\"title\":{\"type\":\"string\",\"minLength\":1}}", "title"),
            Set.of("tasks:write:self"),
            null,
            (args, ctx) -> {
                executions.incrementAndGet();
                return json("{\"task\":{\"title\":" + args.get("title") + "}}");
            });
    private final Tool listTasks = tool("list_tasks", objectSchema("{}"), Set.of(), null, (args, ctx) -> {
        executions.incrementAndGet();
        return json("{\"tasks\":[]}");
    });

    TurnRunnerTest() {
        store.createSession(Session.start(SESSION, "default", USER, "helper", null, NOW));
    }

    private static TurnLimits limits(int maxIterations, int maxToolCallsPerTurn) {
        return new TurnLimits(
                maxIterations,
                maxToolCallsPerTurn,
                50,
                20,
                4000,
                128_000,
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                Duration.ofSeconds(45));
    }

    private TurnRunner runner(
            ConversationStore conversations, ScriptedModel model, ModulePipeline modules, Tool... extra) {
        List<Tool> tools = new ArrayList<>(List.of(addTask, listTasks));
        tools.addAll(List.of(extra));
        return new TurnRunner(
                        conversations,
                        model,
                        new ToolCatalog(List.of(source(tools.toArray(Tool[]::new)))),
                        WORDS,
                        COSTS,
                        CLOCK,
                        modules)
                .withCheckpoints(checkpoints::add);
    }

    private TurnRequest request(String content, TurnLimits limits, Principal principal, Cancellation cancellation) {
        Session session = store.findSession(USER, SESSION).orElseThrow();
        return new TurnRequest(
                "req-1",
                principal,
                session,
                agent(List.of("add_task", "list_tasks", "wait"), limits),
                content,
                cancellation);
    }

    private TurnOutcome run(ScriptedModel model, String content) {
        return run(model, content, LIMITS, principal("tasks:write:self"));
    }

    private TurnOutcome run(ScriptedModel model, String content, TurnLimits limits, Principal principal) {
        return runner(store, model, ModulePipeline.none(CLOCK))
                .run(request(content, limits, principal, new Cancellation()), events::add);
    }

    private List<String> eventNames() {
        return events.stream().map(e -> e.getClass().getSimpleName()).toList();
    }

    private String streamed() {
        return String.join(
                "",
                events.stream()
                        .filter(e -> e instanceof TurnEvent.Chunk)
                        .map(e -> ((TurnEvent.Chunk) e).content())
                        .toList());
    }

    private List<Message> messages() {
        return store.listMessages(USER, SESSION, null, 50);
    }

    private static List<ChatMessage.ToolResult> toolResults(ModelRequest request) {
        return request.messages().stream()
                .filter(m -> m instanceof ChatMessage.ToolResult)
                .map(m -> (ChatMessage.ToolResult) m)
                .toList();
    }

    @Test
    void a_text_answer_is_streamed_saved_with_its_usage_and_ends_with_done() {
        ScriptedModel model = ScriptedModel.of(text("Hello there, Alice."));

        TurnOutcome outcome = run(model, "hi");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(eventNames()).first().isEqualTo("Started");
        assertThat(eventNames()).last().isEqualTo("Done");
        assertThat(((TurnEvent.Done) outcome.terminal()).stopReason()).isEqualTo(TurnEvent.Done.COMPLETED);
        assertThat(streamed()).isEqualTo("Hello there, Alice.");
        assertThat(messages())
                .extracting(Message::role, Message::content, Message::status)
                .containsExactly(
                        tuple(MessageRole.USER, "hi", MessageStatus.COMPLETE),
                        tuple(MessageRole.ASSISTANT, "Hello there, Alice.", MessageStatus.COMPLETE));
        assertThat(outcome.assistantMessage().model()).isEqualTo(ScriptedModel.MODEL);
        assertThat(outcome.usage()).isEqualTo(new TurnEvent.Usage(100, 20, 0, PRICE));
        assertThat(store.usageRows(SESSION))
                .singleElement()
                .satisfies(u -> assertThat(u.messageId())
                        .isEqualTo(outcome.assistantMessage().id()));
        assertThat(model.requests().getFirst().messages().getLast()).isEqualTo(new ChatMessage.User("hi"));
    }

    @Test
    void one_tool_call_runs_its_result_goes_back_to_the_model_and_is_stored_once() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "add_task", "{\"title\":\"Buy milk\"}")), text("Added \"Buy milk\"."));

        TurnOutcome outcome = run(model, "add buy milk");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(eventNames())
                .containsExactly("Started", "ToolCallStarted", "ToolCallFinished", "Chunk", "Chunk", "Done");
        assertThat(executions).hasValue(1);
        assertThat(model.requests()).hasSize(2);
        ModelRequest second = model.requests().get(1);
        assertThat(second.messages())
                .contains(new ChatMessage.Assistant("", List.of(call("c1", "add_task", "{\"title\":\"Buy milk\"}"))));
        assertThat(toolResults(second))
                .containsExactly(new ChatMessage.ToolResult("c1", "add_task", "{\"task\":{\"title\":\"Buy milk\"}}"));
        assertThat(((TurnEvent.Done) outcome.terminal()).toolsCalled()).containsExactly("add_task");
        assertThat(store.toolCallRows(SESSION))
                .as("written once as it finished, then linked to the answer")
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.messageId())
                            .isEqualTo(outcome.assistantMessage().id());
                    assertThat(row.state()).isEqualTo(ToolCallState.SUCCEEDED);
                    assertThat(row.toolArgs()).isEqualTo("{\"title\":\"Buy milk\"}");
                    assertThat(row.toolResult()).isEqualTo("{\"task\":{\"title\":\"Buy milk\"}}");
                });
        assertThat(outcome.toolCalls())
                .extracting(ToolCallRecord::id)
                .isEqualTo(store.toolCallRows(SESSION).stream()
                        .map(ToolCallRecord::id)
                        .toList());
        assertThat(store.findSession(USER, SESSION).orElseThrow().toolCallCount())
                .isEqualTo(1);
    }

    @Test
    void two_tool_calls_of_one_reply_both_run_and_their_results_go_back_in_the_models_order() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "add_task", "{\"title\":\"One\"}"), call("c2", "add_task", "{\"title\":\"Two\"}")),
                text("Added both."));

        TurnOutcome outcome = run(model, "add one and two");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(executions).hasValue(2);
        assertThat(model.requests()).hasSize(2);
        assertThat(toolResults(model.requests().get(1)))
                .extracting(ChatMessage.ToolResult::toolCallId, ChatMessage.ToolResult::content)
                .containsExactly(
                        tuple("c1", "{\"task\":{\"title\":\"One\"}}"), tuple("c2", "{\"task\":{\"title\":\"Two\"}}"));
        assertThat(checkpoints)
                .extracting(TurnCheckpoint::after)
                .containsExactly(
                        TurnCheckpoint.Step.MODEL_CALL, TurnCheckpoint.Step.TOOL_CALLS, TurnCheckpoint.Step.MODEL_CALL);
        assertThat(store.toolCallRows(SESSION))
                .hasSize(2)
                .allSatisfy(row -> assertThat(row.messageId())
                        .isEqualTo(outcome.assistantMessage().id()));
        assertThat(store.findSession(USER, SESSION).orElseThrow().toolCallCount())
                .isEqualTo(2);
    }

    @Test
    void arguments_that_are_not_valid_json_are_refused_and_the_model_is_told_why() {
        ScriptedModel model =
                ScriptedModel.of(toolCalls(call("c1", "add_task", "{\"title\": ")), text("Sorry, let me retry."));

        TurnOutcome outcome = run(model, "add something");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(executions).hasValue(0);
        assertThat(toolResults(model.requests().get(1)))
                .singleElement()
                .satisfies(r -> assertThat(r.content()).contains("invalid_arguments"));
        assertThat(store.toolCallRows(SESSION)).singleElement().satisfies(row -> {
            assertThat(row.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
            assertThat(row.toolArgs()).as("the model's text, kept as sent").isEqualTo("{\"title\": ");
        });
    }

    @Test
    void a_tool_the_user_lacks_the_permission_for_is_denied_without_running() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "add_task", "{\"title\":\"Buy milk\"}")), text("You may not add tasks."));

        TurnOutcome outcome = run(model, "add buy milk", LIMITS, principal());

        assertThat(outcome.succeeded()).isTrue();
        assertThat(executions).hasValue(0);
        assertThat(toolResults(model.requests().get(1)))
                .singleElement()
                .satisfies(r -> assertThat(r.content()).contains("permission_denied"));
        assertThat(outcome.toolCalls()).extracting(ToolCallRecord::state).containsExactly(ToolCallState.DENIED);
    }

    @Test
    void a_model_that_still_wants_tools_at_the_iteration_limit_is_stopped_with_a_note() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "list_tasks", "{}")),
                toolCalls(call("c2", "add_task", "{\"title\":\"More\"}")),
                text("never asked"));

        TurnOutcome outcome = run(model, "keep going", limits(2, 10), principal("tasks:write:self"));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(model.requests()).hasSize(2);
        assertThat(executions).as("only the first step's call ran").hasValue(1);
        assertThat(outcome.answer())
                .contains("I wasn't able to finish this within 2 steps")
                .contains("list_tasks (succeeded)");
        assertThat(outcome.toolCalls()).extracting(ToolCallRecord::toolName).containsExactly("list_tasks");
        assertThat(((TurnEvent.Done) outcome.terminal()).stopReason()).isEqualTo(TurnEvent.Done.MAX_ITERATIONS);
    }

    @Test
    void calls_beyond_the_per_turn_tool_call_limit_are_refused_and_the_turn_still_answers() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "add_task", "{\"title\":\"One\"}"), call("c2", "add_task", "{\"title\":\"Two\"}")),
                text("I added one."));

        TurnOutcome outcome = run(model, "add two", limits(5, 1), principal("tasks:write:self"));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(executions).hasValue(1);
        assertThat(outcome.toolCalls())
                .extracting(ToolCallRecord::state)
                .containsExactly(ToolCallState.SUCCEEDED, ToolCallState.DENIED);
        assertThat(toolResults(model.requests().get(1)).get(1).content()).contains(ToolDispatcher.LIMIT_REACHED);
    }

    @Test
    void a_turn_cancelled_while_a_tool_runs_ends_cancelled_keeps_the_call_and_asks_the_model_no_more()
            throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Tool wait = tool("wait", objectSchema("{}"), Set.of(), Duration.ofSeconds(30), (args, ctx) -> {
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return json("{}");
        });
        ScriptedModel model = ScriptedModel.of(toolCalls(call("c1", "wait", "{}")), text("never asked"));
        Cancellation cancellation = new Cancellation();
        TurnRunner runner = runner(store, model, ModulePipeline.none(CLOCK), wait);

        CompletableFuture<TurnOutcome> turn = CompletableFuture.supplyAsync(
                () -> runner.run(request("wait", LIMITS, principal(), cancellation), events::add),
                command -> Thread.ofVirtual().start(command));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        cancellation.cancel();
        TurnOutcome outcome = turn.get(10, TimeUnit.SECONDS);

        assertThat(outcome.failure()).get().extracting(TurnEvent.Failed::code).isEqualTo("cancelled");
        assertThat(outcome.assistantMessage().status()).isEqualTo(MessageStatus.CANCELLED);
        assertThat(model.requests()).hasSize(1);
        assertThat(store.toolCallRows(SESSION)).singleElement().satisfies(row -> {
            assertThat(row.state()).isEqualTo(ToolCallState.CANCELLED);
            assertThat(row.messageId()).isEqualTo(outcome.assistantMessage().id());
        });
    }

    @Test
    void a_model_failure_before_any_output_saves_an_empty_incomplete_answer() {
        ScriptedModel model = ScriptedModel.of(failing("", ModelFailure.Kind.UNAVAILABLE));

        TurnOutcome outcome = run(model, "hi");

        assertThat(outcome.failure()).get().satisfies(f -> {
            assertThat(f.code()).isEqualTo("model_unavailable");
            assertThat(f.retryable()).isTrue();
        });
        assertThat(eventNames()).containsExactly("Started", "Failed");
        assertThat(messages())
                .extracting(Message::role, Message::content, Message::status)
                .containsExactly(
                        tuple(MessageRole.USER, "hi", MessageStatus.COMPLETE),
                        tuple(MessageRole.ASSISTANT, "", MessageStatus.INCOMPLETE));
    }

    @Test
    void a_model_call_that_times_out_within_the_request_time_is_the_models_timeout() {
        ScriptedModel model = ScriptedModel.of(failing("", ModelFailure.Kind.TIMEOUT));

        TurnOutcome outcome = run(model, "hi");

        assertThat(outcome.failure()).get().extracting(TurnEvent.Failed::code).isEqualTo("model_timeout");
    }

    @Test
    void a_turn_whose_request_time_is_used_up_reports_the_requests_timeout_not_the_models() {
        // the model call's timeout is what is left of the request's: when both run out together, the request's
        // deadline is what the client hears about, whichever timer fired first
        TurnLimits oneNanosecond = new TurnLimits(
                5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofNanos(1));
        ScriptedModel model = ScriptedModel.of(failing("", ModelFailure.Kind.TIMEOUT));

        TurnOutcome outcome = run(model, "hi", oneNanosecond, principal("tasks:write:self"));

        assertThat(outcome.failure()).get().satisfies(f -> {
            assertThat(f.code()).isEqualTo("request_timeout");
            assertThat(f.retryable()).isTrue();
        });
        assertThat(messages())
                .extracting(Message::role, Message::status)
                .containsExactly(
                        tuple(MessageRole.USER, MessageStatus.COMPLETE),
                        tuple(MessageRole.ASSISTANT, MessageStatus.CANCELLED));
    }

    @Test
    void a_model_that_cannot_be_resolved_ends_the_turn_as_not_configured_not_as_an_internal_error() {
        TurnRunner runner = new TurnRunner(
                store,
                reference -> {
                    throw new IllegalArgumentException("cannot resolve '" + reference + "': no key");
                },
                new ToolCatalog(List.of(source(addTask))),
                WORDS,
                COSTS,
                CLOCK,
                ModulePipeline.none(CLOCK));

        TurnOutcome outcome =
                runner.run(request("hi", LIMITS, principal("tasks:write:self"), new Cancellation()), events::add);

        assertThat(outcome.failure()).get().satisfies(f -> {
            assertThat(f.code()).isEqualTo("model_not_configured");
            assertThat(f.retryable()).isFalse();
        });
        assertThat(eventNames()).containsExactly("Started", "Failed");
    }

    @Test
    void a_model_failure_after_output_keeps_what_the_client_saw_and_the_earlier_tool_calls() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "list_tasks", "{}")), failing("You have no ", ModelFailure.Kind.UNAVAILABLE));

        TurnOutcome outcome = run(model, "what are my tasks?");

        assertThat(outcome.succeeded()).isFalse();
        assertThat(streamed()).isEqualTo("You have no ");
        assertThat(outcome.assistantMessage().content()).isEqualTo("You have no ");
        assertThat(outcome.assistantMessage().status()).isEqualTo(MessageStatus.INCOMPLETE);
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(row -> assertThat(row.messageId())
                        .isEqualTo(outcome.assistantMessage().id()));
    }

    @Test
    void a_message_blocked_by_a_before_ai_module_never_reaches_the_model() {
        Module guard = new Module() {
            @Override
            public ModuleDescriptor descriptor() {
                return ModuleDescriptor.of("guard", Hook.BEFORE_AI);
            }

            @Override
            public HookResult handle(HookContext context) {
                return HookResult.block("off topic", "I can only help with tasks.", List.of("topic"));
            }
        };
        ScriptedModel model = ScriptedModel.of(text("never asked"));
        TurnRunner runner =
                runner(store, model, new ModulePipeline(ModuleSource.of(List.of(guard)), AuditStore.NONE, CLOCK));

        TurnOutcome outcome =
                runner.run(request("tell me a joke", LIMITS, principal(), new Cancellation()), events::add);

        assertThat(outcome.succeeded()).isTrue();
        assertThat(model.requests()).isEmpty();
        assertThat(eventNames()).containsExactly("Started", "Blocked", "Done");
        assertThat(messages())
                .extracting(Message::content, Message::status)
                .containsExactly(
                        tuple(TurnRecorder.BLOCKED_CONTENT, MessageStatus.BLOCKED),
                        tuple("I can only help with tasks.", MessageStatus.COMPLETE));
        assertThat(store.auditRows(SESSION))
                .singleElement()
                .satisfies(a -> assertThat(a.originalContent()).isEqualTo("tell me a joke"));
        assertThat(checkpoints).isEmpty();
    }

    @Test
    void the_state_is_reported_after_every_step_and_the_tool_calls_are_stored_before_the_turn_ends() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("c1", "list_tasks", "{}")), text("Nothing to do."));
        List<List<ToolCallRecord>> rowsAtCheckpoints = new ArrayList<>();
        TurnRunner runner = runner(store, model, ModulePipeline.none(CLOCK)).withCheckpoints(c -> {
            checkpoints.add(c);
            rowsAtCheckpoints.add(store.toolCallRows(SESSION));
        });

        TurnOutcome outcome = runner.run(request("my tasks?", LIMITS, principal(), new Cancellation()), events::add);

        assertThat(checkpoints)
                .extracting(TurnCheckpoint::after)
                .containsExactly(
                        TurnCheckpoint.Step.MODEL_CALL, TurnCheckpoint.Step.TOOL_CALLS, TurnCheckpoint.Step.MODEL_CALL);
        TurnState afterModel = checkpoints.get(0).state();
        TurnState afterTools = checkpoints.get(1).state();
        TurnState afterAnswer = checkpoints.get(2).state();
        TurnEvent.Started started = (TurnEvent.Started) events.getFirst();

        assertThat(afterModel.turnId()).isEqualTo(started.turnId());
        assertThat(afterModel.userMessageId()).isEqualTo(outcome.userMessage().id());
        assertThat(afterModel.deadline()).isEqualTo(NOW.plusSeconds(45));
        assertThat(afterModel.iteration()).isEqualTo(1);
        assertThat(afterModel.pendingToolCalls()).containsExactly(call("c1", "list_tasks", "{}"));
        assertThat(afterModel.toolCallCount()).isZero();
        assertThat(afterModel.usage()).hasSize(1);

        assertThat(afterTools.pendingToolCalls()).isEmpty();
        assertThat(afterTools.toolCallCount()).isEqualTo(1);
        assertThat(afterTools.messages().getLast())
                .isEqualTo(new ChatMessage.ToolResult("c1", "list_tasks", "{\"tasks\":[]}"));
        assertThat(afterTools.callCache()).hasSize(1);
        assertThat(rowsAtCheckpoints.get(1))
                .as("the call is in tool_calls before the turn ends, not yet linked to an answer")
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.id())
                            .isEqualTo(afterTools.toolCalls().getFirst().recordId());
                    assertThat(row.messageId()).isNull();
                });

        assertThat(afterAnswer.iteration()).isEqualTo(2);
        assertThat(afterAnswer.usage()).hasSize(2);
        assertThat(afterAnswer.answerText()).isEqualTo("Nothing to do.");
        assertThat(afterAnswer.model()).isEqualTo(ScriptedModel.MODEL);
        assertThat(afterAnswer.messages().getLast()).isEqualTo(new ChatMessage.Assistant("Nothing to do.", List.of()));
        assertThat(TurnStateCodec.decode(TurnStateCodec.encode(afterAnswer))).isEqualTo(afterAnswer);
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(row -> assertThat(row.messageId())
                        .isEqualTo(outcome.assistantMessage().id()));
    }

    @Test
    void a_checkpoint_listener_that_throws_does_not_stop_the_turn() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("c1", "list_tasks", "{}")), text("Done."));
        TurnRunner runner = runner(store, model, ModulePipeline.none(CLOCK)).withCheckpoints(c -> {
            throw new IllegalStateException("listener broke");
        });

        TurnOutcome outcome = runner.run(request("tasks", LIMITS, principal(), new Cancellation()), events::add);

        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.answer()).isEqualTo("Done.");
    }

    @Test
    void tool_calls_that_could_not_be_written_as_they_finished_are_written_at_the_end_of_the_turn() {
        ConversationStore failingEarlyWrites = (ConversationStore) Proxy.newProxyInstance(
                ConversationStore.class.getClassLoader(),
                new Class<?>[] {ConversationStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("recordToolCalls")) {
                        throw new IllegalStateException("database briefly unavailable");
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ScriptedModel model = ScriptedModel.of(toolCalls(call("c1", "list_tasks", "{}")), text("Done."));

        TurnOutcome outcome = runner(failingEarlyWrites, model, ModulePipeline.none(CLOCK))
                .run(request("tasks", LIMITS, principal(), new Cancellation()), events::add);

        assertThat(outcome.succeeded()).isTrue();
        assertThat(store.toolCallRows(SESSION))
                .singleElement()
                .satisfies(row -> assertThat(row.messageId())
                        .isEqualTo(outcome.assistantMessage().id()));
    }

    /** The in-memory store, but the listed methods fail as a database that went away does while {@code down}. */
    private ConversationStore unavailableWhile(java.util.concurrent.atomic.AtomicBoolean down, String... methods) {
        Set<String> failing = Set.of(methods);
        return (ConversationStore) Proxy.newProxyInstance(
                ConversationStore.class.getClassLoader(),
                new Class<?>[] {ConversationStore.class},
                (proxy, method, args) -> {
                    if (down.get() && failing.contains(method.getName())) {
                        throw new dev.baton.core.store.StoreUnavailableException(
                                "database unavailable", Duration.ofSeconds(1), null);
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void a_turn_whose_end_cannot_be_written_fails_retryably_and_its_usage_is_written_once_the_store_is_back() {
        var down = new java.util.concurrent.atomic.AtomicBoolean(true);
        ConversationStore flaky = unavailableWhile(down, "completeTurn", "recordUsage");
        ScriptedModel model = ScriptedModel.of(text("Hello there."));
        TurnRunner runner = runner(flaky, model, ModulePipeline.none(CLOCK)).withUsageRetry(Duration.ofMillis(20));

        TurnOutcome outcome = runner.run(request("hi", LIMITS, principal(), new Cancellation()), events::add);

        assertThat(outcome.failure()).hasValueSatisfying(f -> {
            assertThat(f.code()).isEqualTo("database_unavailable");
            assertThat(f.retryable()).isTrue();
            assertThat(f.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        });
        assertThat(eventNames()).last().isEqualTo("Failed");
        // the model call happened and was paid for: its usage waits, it is not dropped
        assertThat(store.usageRows(SESSION)).isEmpty();
        assertThat(runner.pendingUsageRows()).isEqualTo(1);

        down.set(false);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> runner.pendingUsageRows() == 0);
        assertThat(store.usageRows(SESSION)).singleElement().satisfies(u -> {
            assertThat(u.costUsd()).isEqualByComparingTo(PRICE);
            assertThat(u.messageId()).as("its answer was never stored").isNull();
        });
    }

    @Test
    void a_user_message_that_cannot_be_saved_fails_the_turn_retryably_before_the_model_is_called() {
        var down = new java.util.concurrent.atomic.AtomicBoolean(true);
        ScriptedModel model = ScriptedModel.of(text("never"));

        TurnOutcome outcome = runner(unavailableWhile(down, "appendUserMessage"), model, ModulePipeline.none(CLOCK))
                .run(request("hi", LIMITS, principal(), new Cancellation()), events::add);

        assertThat(outcome.failure()).hasValueSatisfying(f -> {
            assertThat(f.code()).isEqualTo("database_unavailable");
            assertThat(f.retryable()).isTrue();
        });
        assertThat(model.requests()).isEmpty();
    }
}
