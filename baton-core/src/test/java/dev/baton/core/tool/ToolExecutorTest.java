package dev.baton.core.tool;

import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.limits;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.principal;
import static dev.baton.core.testing.TestTools.source;
import static dev.baton.core.testing.TestTools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.turn.Cancellation;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ToolExecutorTest {
    private static final JsonNode TASK_SCHEMA = objectSchema(
            "{\"title\":{\"type\":\"string\",\"minLength\":1},\"priority\":{\"enum\":[\"low\",\"medium\",\"high\"]}}",
            "title");

    private final AtomicInteger executions = new AtomicInteger();
    private final Tool addTask = tool("add_task", TASK_SCHEMA, Set.of("tasks:write:self"), null, (args, ctx) -> {
        executions.incrementAndGet();
        return json("{\"task\":{\"title\":" + args.get("title") + "}}");
    });

    private List<ToolCallOutcome> run(
            List<Tool> tools,
            Principal principal,
            Duration timeout,
            Cancellation cancel,
            CallCache cache,
            ToolCallRequest... calls) {
        ToolCatalog catalog = new ToolCatalog(List.of(source(tools.toArray(Tool[]::new))));
        List<String> allowed = tools.stream().map(t -> t.definition().name()).toList();
        ToolCallScope scope =
                new ToolCallScope(agent(allowed, limits(20, 4000, 128_000)), principal, "session-1", timeout, cancel);
        return new ToolExecutor(catalog, Clock.systemUTC()).execute(List.of(calls), scope, cache);
    }

    private List<ToolCallOutcome> run(Tool tool, ToolCallRequest... calls) {
        return run(
                List.of(tool),
                principal("tasks:write:self"),
                Duration.ofSeconds(5),
                new Cancellation(),
                new CallCache(),
                calls);
    }

    @Test
    void valid_call_runs_the_tool_and_returns_its_result_as_json_text() {
        ToolCallOutcome outcome = run(addTask, new ToolCallRequest("c1", "add_task", "{\"title\":\"Buy milk\"}"))
                .getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(outcome.toMessage().content()).isEqualTo("{\"task\":{\"title\":\"Buy milk\"}}");
        assertThat(outcome.toMessage().toolCallId()).isEqualTo("c1");
        assertThat(executions).hasValue(1);
    }

    @Test
    void each_call_of_a_turn_gets_an_idempotency_key_that_is_the_same_when_the_call_is_made_again() {
        List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();
        // the first two calls run at once, in either order: their keys are put in call order below
        java.util.Map<Integer, String> keyOfN = new java.util.concurrent.ConcurrentHashMap<>();
        Tool charge = tool("charge", objectSchema("{\"n\":{\"type\":\"integer\"}}"), Set.of(), null, (args, ctx) -> {
            String key = String.valueOf(ctx.idempotencyKey());
            keys.add(key);
            keyOfN.putIfAbsent(args.path("n").asInt(0), key);
            return json("{}");
        });
        ToolCatalog catalog = new ToolCatalog(List.of(source(charge)));
        java.util.function.Function<String, ToolCallScope> scopeOfTurn = turnId -> new ToolCallScope(
                agent(List.of("charge"), limits(20, 4000, 128_000)),
                principal(),
                "session-1",
                Duration.ofSeconds(5),
                new Cancellation(),
                null,
                turnId);

        new ToolExecutor(catalog, Clock.systemUTC())
                .execute(
                        List.of(
                                new ToolCallRequest("c1", "charge", "{\"n\":1}"),
                                new ToolCallRequest("c2", "charge", "{\"n\":2}")),
                        scopeOfTurn.apply("turn-1"),
                        new CallCache());
        keys.clear();
        keys.add(keyOfN.get(1));
        keys.add(keyOfN.get(2));
        // the call made again by another executor (an instance that took the turn over), with a fresh cache
        new ToolExecutor(catalog, Clock.systemUTC())
                .execute(
                        List.of(new ToolCallRequest("c1", "charge", "{}")),
                        scopeOfTurn.apply("turn-1"),
                        new CallCache());
        new ToolExecutor(catalog, Clock.systemUTC())
                .execute(
                        List.of(new ToolCallRequest("c1", "charge", "{}")),
                        scopeOfTurn.apply("turn-2"),
                        new CallCache());
        run(charge, new ToolCallRequest("c1", "charge", "{}"));

        assertThat(keys).hasSize(5);
        assertThat(keys.get(0)).startsWith("baton-tc-").isNotEqualTo(keys.get(1));
        assertThat(keys.get(2)).as("the same call again").isEqualTo(keys.get(0));
        assertThat(keys.get(3)).as("the same call id in another turn").isNotEqualTo(keys.get(0));
        assertThat(keys.get(4)).as("a call no turn makes has none").isEqualTo("null");
    }

    @Test
    void a_structured_result_of_megabytes_is_cut_to_the_bound_and_says_so_to_the_model() {
        com.fasterxml.jackson.databind.node.ObjectNode big =
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        com.fasterxml.jackson.databind.node.ArrayNode rows = big.putArray("rows");
        for (int i = 0; i < 100_000; i++) rows.addObject().put("id", i).put("name", "row number " + i);
        Tool dump = tool("dump", objectSchema("{}"), Set.of(), null, (args, ctx) -> big);

        ToolCallOutcome outcome =
                run(dump, new ToolCallRequest("c1", "dump", "{}")).getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.SUCCEEDED);
        JsonNode result = outcome.result();
        assertThat(result.path("truncated").asBoolean()).isTrue();
        assertThat(result.path("originalChars").asLong())
                .isEqualTo(big.toString().length());
        String partial = result.path("partial").asText();
        assertThat(big.toString()).startsWith(partial);
        assertThat(partial.length()).isGreaterThan(ToolResultBound.MAX_CHARS / 2);
        String sentToTheModel = outcome.toMessage().content();
        assertThat(sentToTheModel.length()).isLessThanOrEqualTo(ToolResultBound.MAX_CHARS);
        assertThat(sentToTheModel).contains("only its first " + partial.length() + " characters are shown");
    }

    @Test
    void a_result_within_the_bound_is_left_as_it_is() {
        JsonNode exact = json("{\"text\":\"" + "y".repeat(ToolResultBound.MAX_CHARS - 11) + "\"}");
        assertThat(exact.toString()).hasSize(ToolResultBound.MAX_CHARS);
        Tool fits = tool("fits", objectSchema("{}"), Set.of(), null, (args, ctx) -> exact);

        ToolCallOutcome outcome =
                run(fits, new ToolCallRequest("c1", "fits", "{}")).getFirst();

        assertThat(outcome.result()).isEqualTo(exact);
    }

    @Test
    void an_error_message_of_megabytes_is_cut_to_the_bound() {
        Tool failing = tool("failing", objectSchema("{}"), Set.of(), null, (args, ctx) -> {
            throw new ToolException("too_much", "z".repeat(5_000_000));
        });

        ToolCallOutcome outcome =
                run(failing, new ToolCallRequest("c1", "failing", "{}")).getFirst();

        assertThat(outcome.error().code()).isEqualTo("too_much");
        assertThat(outcome.error().message()).startsWith("zzz").contains("(cut: the message was 5000000 characters)");
        assertThat(outcome.error().message().length()).isLessThan(ToolResultBound.MAX_CHARS + 100);
    }

    @Test
    void schema_rejects_unknown_fields_without_running_the_tool() {
        ToolCallOutcome outcome = run(
                        addTask, new ToolCallRequest("c1", "add_task", "{\"title\":\"x\",\"colour\":\"red\"}"))
                .getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
        assertThat(outcome.error().code()).isEqualTo("invalid_arguments");
        assertThat(outcome.error().message()).contains("colour");
        assertThat(executions).hasValue(0);
    }

    @Test
    void schema_rejects_wrong_types_and_missing_required_fields_with_the_validators_messages() {
        List<ToolCallOutcome> outcomes = run(
                addTask,
                new ToolCallRequest("c1", "add_task", "{\"title\":42}"),
                new ToolCallRequest("c2", "add_task", "{\"priority\":\"urgent\"}"));

        assertThat(outcomes)
                .extracting(ToolCallOutcome::state)
                .containsExactly(ToolCallState.INVALID_ARGUMENTS, ToolCallState.INVALID_ARGUMENTS);
        assertThat(outcomes.get(0).error().message()).contains("title").contains("string");
        assertThat(outcomes.get(1).error().message()).contains("title").contains("priority");
        assertThat(outcomes.get(1).toMessage().content()).startsWith("{\"error\":{\"code\":\"invalid_arguments\"");
        assertThat(executions).hasValue(0);
    }

    @Test
    void invalid_json_is_reported_as_invalid_arguments() {
        ToolCallOutcome outcome = run(addTask, new ToolCallRequest("c1", "add_task", "{\"title\": \"x\""))
                .getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
        assertThat(outcome.error().message()).startsWith("arguments are not valid JSON");
        assertThat(executions).hasValue(0);
    }

    @Test
    void a_tool_outside_the_agents_allow_list_is_unknown() {
        ToolCatalog catalog = new ToolCatalog(List.of(source(addTask)));
        ToolCallScope scope = new ToolCallScope(
                agent(List.of("list_tasks"), limits(20, 4000, 128_000)),
                principal("tasks:write:self"),
                "s",
                Duration.ofSeconds(1),
                new Cancellation());

        ToolCallOutcome outcome = new ToolExecutor(catalog, Clock.systemUTC())
                .execute(List.of(new ToolCallRequest("c1", "add_task", "{\"title\":\"x\"}")), scope, new CallCache())
                .getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.error()).isEqualTo(new ToolError("unknown_tool", "unknown tool: add_task"));
        assertThat(executions).hasValue(0);
    }

    @Test
    void a_caller_without_the_tools_permissions_is_denied_and_the_tool_never_runs() {
        ToolCallOutcome outcome = run(
                        List.of(addTask),
                        principal("tasks:read:self"),
                        Duration.ofSeconds(1),
                        new Cancellation(),
                        new CallCache(),
                        new ToolCallRequest("c1", "add_task", "{\"title\":\"x\"}"))
                .getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.DENIED);
        assertThat(outcome.error().code()).isEqualTo("permission_denied");
        assertThat(executions).hasValue(0);
    }

    @Test
    void a_tool_of_shared_data_is_denied_to_a_caller_without_one_of_its_roles_and_never_runs() {
        ToolDefinition def = new ToolDefinition(
                "team_notes", "Team notes.", objectSchema("{}"), Set.of("notes:read"), null, false, Set.of("admin"));
        Tool shared = new Tool() {
            @Override
            public ToolDefinition definition() {
                return def;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                executions.incrementAndGet();
                return json("{\"notes\":[]}");
            }
        };
        Principal student = new Principal("s", "t", null, null, Set.of("student"), Set.of("notes:read"), List.of());
        Principal admin = new Principal("a", "t", null, null, Set.of("admin"), Set.of("notes:read"), List.of());

        ToolCallOutcome denied = run(
                        List.of(shared),
                        student,
                        Duration.ofSeconds(1),
                        new Cancellation(),
                        new CallCache(),
                        new ToolCallRequest("c1", "team_notes", "{}"))
                .getFirst();
        ToolCallOutcome allowed = run(
                        List.of(shared),
                        admin,
                        Duration.ofSeconds(1),
                        new Cancellation(),
                        new CallCache(),
                        new ToolCallRequest("c2", "team_notes", "{}"))
                .getFirst();

        assertThat(denied.state()).isEqualTo(ToolCallState.DENIED);
        assertThat(denied.error().code()).isEqualTo("permission_denied");
        assertThat(allowed.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(executions).hasValue(1);
        assertThat(def.sharedData()).isTrue();
        assertThat(addTask.definition().sharedData()).isFalse();
    }

    @Test
    void a_tool_that_outlives_its_timeout_is_timed_out_and_interrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Tool slow = tool("slow", objectSchema("{}"), Set.of(), Duration.ofMillis(150), (args, ctx) -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return json("{}");
        });

        long started = System.nanoTime();
        ToolCallOutcome outcome =
                run(slow, new ToolCallRequest("c1", "slow", "{}")).getFirst();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(outcome.state()).isEqualTo(ToolCallState.TIMED_OUT);
        assertThat(outcome.error().code()).isEqualTo("timeout");
        assertThat(outcome.durationMs()).isGreaterThanOrEqualTo(140);
        assertThat(tookMs).isLessThan(3_000);
        assertThat(interrupted.await(5, TimeUnit.SECONDS))
                .as("tool thread interrupted")
                .isTrue();
    }

    @Test
    void a_tools_own_longer_timeout_is_capped_by_what_is_left_of_the_request() {
        Tool slow = tool("slow", objectSchema("{}"), Set.of(), Duration.ofSeconds(30), (args, ctx) -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return json("{}");
        });
        ToolCatalog catalog = new ToolCatalog(List.of(source(slow)));
        ToolCallScope scope = new ToolCallScope(
                agent(List.of("slow"), limits(20, 4000, 128_000)),
                principal(),
                "s",
                Duration.ofSeconds(10),
                new Cancellation(),
                Duration.ofMillis(200));

        long started = System.nanoTime();
        ToolCallOutcome outcome = new ToolExecutor(catalog, Clock.systemUTC())
                .execute(List.of(new ToolCallRequest("c1", "slow", "{}")), scope, new CallCache())
                .getFirst();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(outcome.state()).isEqualTo(ToolCallState.TIMED_OUT);
        assertThat(tookMs).isLessThan(5_000);
    }

    @Test
    void a_tool_that_throws_an_error_fails_at_once_instead_of_waiting_out_its_timeout() {
        Tool broken = tool("broken", objectSchema("{}"), Set.of(), Duration.ofSeconds(30), (args, ctx) -> {
            throw new AssertionError("a bug in the tool");
        });

        long started = System.nanoTime();
        ToolCallOutcome outcome =
                run(broken, new ToolCallRequest("c1", "broken", "{}")).getFirst();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.error().code()).isEqualTo("tool_failed");
        assertThat(tookMs).isLessThan(5_000);
    }

    @Test
    void independent_calls_of_one_response_run_concurrently_and_keep_the_models_order() {
        // each tool waits for the other at the barrier: run one after the other, both would time out
        CyclicBarrier bothRunning = new CyclicBarrier(2);
        Tool first = tool("first", objectSchema("{}"), Set.of(), null, (args, ctx) -> meet(bothRunning, "{\"n\":1}"));
        Tool second = tool("second", objectSchema("{}"), Set.of(), null, (args, ctx) -> meet(bothRunning, "{\"n\":2}"));

        List<ToolCallOutcome> outcomes = run(
                List.of(first, second),
                principal(),
                Duration.ofSeconds(5),
                new Cancellation(),
                new CallCache(),
                new ToolCallRequest("c2", "second", "{}"),
                new ToolCallRequest("c1", "first", "{}"));

        assertThat(outcomes)
                .extracting(ToolCallOutcome::state)
                .containsExactly(ToolCallState.SUCCEEDED, ToolCallState.SUCCEEDED);
        assertThat(outcomes).extracting(o -> o.request().id()).containsExactly("c2", "c1");
        assertThat(outcomes).extracting(o -> o.result().get("n").asInt()).containsExactly(2, 1);
    }

    @Test
    void an_identical_call_in_the_same_turn_is_answered_from_the_first_without_running_again() {
        CallCache cache = new CallCache();
        Principal alice = principal("tasks:write:self");
        List<ToolCallOutcome> firstResponse = run(
                List.of(addTask),
                alice,
                Duration.ofSeconds(5),
                new Cancellation(),
                cache,
                new ToolCallRequest("c1", "add_task", "{\"title\":\"Buy milk\",\"priority\":\"high\"}"),
                new ToolCallRequest("c2", "add_task", "{ \"priority\": \"high\", \"title\": \"Buy milk\" }"));
        List<ToolCallOutcome> laterResponse = run(
                List.of(addTask),
                alice,
                Duration.ofSeconds(5),
                new Cancellation(),
                cache,
                new ToolCallRequest("c3", "add_task", "{\"priority\":\"high\",\"title\":\"Buy milk\"}"));

        assertThat(executions).hasValue(1);
        assertThat(firstResponse)
                .extracting(ToolCallOutcome::state)
                .containsExactly(ToolCallState.SUCCEEDED, ToolCallState.DEDUPLICATED);
        assertThat(laterResponse.getFirst().state()).isEqualTo(ToolCallState.DEDUPLICATED);
        assertThat(laterResponse.getFirst().toMessage().content())
                .isEqualTo(firstResponse.getFirst().toMessage().content());
        assertThat(laterResponse.getFirst().toMessage().toolCallId()).isEqualTo("c3");
        assertThat(CallCache.restore(cache.snapshot())
                        .find("add_task", "{\"priority\":\"high\",\"title\":\"Buy milk\"}"))
                .isPresent();
    }

    @Test
    void a_tool_exceptions_code_and_message_reach_the_model() {
        Tool missing = tool(
                "complete_task",
                objectSchema("{\"taskId\":{\"type\":\"string\"}}", "taskId"),
                Set.of(),
                null,
                (args, ctx) -> {
                    throw new ToolException(
                            "not_found", "no task with id " + args.get("taskId").asText());
                });

        ToolCallOutcome outcome = run(missing, new ToolCallRequest("c1", "complete_task", "{\"taskId\":\"42\"}"))
                .getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.toMessage().content())
                .isEqualTo("{\"error\":{\"code\":\"not_found\",\"message\":\"no task with id 42\"}}");
    }

    @Test
    void any_other_exception_reaches_the_model_only_as_a_generic_failure() {
        Tool broken = tool("broken", objectSchema("{}"), Set.of(), null, (args, ctx) -> {
            throw new IllegalStateException("jdbc:postgresql://db password=hunter2");
        });

        ToolCallOutcome outcome =
                run(broken, new ToolCallRequest("c1", "broken", "{}")).getFirst();

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.error().code()).isEqualTo("tool_failed");
        assertThat(outcome.toMessage().content()).doesNotContain("hunter2").doesNotContain("jdbc");
    }

    @Test
    void cancelling_the_turn_interrupts_running_tools() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Tool blocking = tool("blocking", objectSchema("{}"), Set.of(), null, (args, ctx) -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return json("{}");
        });
        Cancellation cancellation = new Cancellation();
        try (var canceller = Executors.newVirtualThreadPerTaskExecutor()) {
            canceller.submit(() -> {
                started.await(5, TimeUnit.SECONDS);
                cancellation.cancel();
                return null;
            });

            ToolCallOutcome outcome = run(
                            List.of(blocking),
                            principal(),
                            Duration.ofSeconds(30),
                            cancellation,
                            new CallCache(),
                            new ToolCallRequest("c1", "blocking", "{}"))
                    .getFirst();

            assertThat(outcome.state()).isEqualTo(ToolCallState.CANCELLED);
            assertThat(outcome.error().code()).isEqualTo("cancelled");
        }
        assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }

    private static JsonNode meet(CyclicBarrier barrier, String result) {
        try {
            barrier.await(3, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the other call never arrived", e);
        }
        return json(result);
    }
}
