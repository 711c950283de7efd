package dev.baton.core.turn;

import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.limits;
import static dev.baton.core.testing.TestTools.principal;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A held call's summary: the tool's words on one line, or none when the tool has none, fails or takes too long. */
class HeldCallSummariesTest {
    private static final ToolCallRequest CALL = new ToolCallRequest("c1", "delete_task", "{\"taskId\":\"t1\"}");

    private final HeldCallSummaries summaries = new HeldCallSummaries(Clock.systemUTC());

    private static ToolCallScope scope(Duration toolTimeout) {
        return new ToolCallScope(
                agent(List.of("delete_task"), limits(10, 1000, 4000)),
                principal("tasks:write:self"),
                "s1",
                toolTimeout,
                new Cancellation());
    }

    private static Tool summarising(BiFunction<JsonNode, ToolContext, Optional<String>> summary) {
        ToolDefinition definition =
                new ToolDefinition("delete_task", "Deletes a task", json("{\"type\":\"object\"}"), null, null, true);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                throw new AssertionError("a summary never runs the call");
            }

            @Override
            public Optional<String> summary(JsonNode arguments, ToolContext context) {
                return summary.apply(arguments, context);
            }
        };
    }

    @Test
    void the_tools_words_for_the_calls_arguments_as_the_caller_on_one_line() {
        Tool tool = summarising((args, ctx) -> Optional.of("Delete task\n  "
                + args.path("taskId").asText() + " of " + ctx.principal().userId()));

        assertThat(summaries.summarise(tool, CALL, scope(Duration.ofSeconds(30))))
                .isEqualTo("Delete task t1 of user-1");
    }

    @Test
    void none_when_the_tool_has_none_gives_a_blank_one_returns_null_or_fails() {
        for (Tool tool : List.of(
                summarising((args, ctx) -> Optional.empty()),
                summarising((args, ctx) -> Optional.of(" \n ")),
                summarising((args, ctx) -> null),
                summarising((args, ctx) -> {
                    throw new IllegalStateException("the task store is down");
                }))) {
            assertThat(summaries.summarise(tool, CALL, scope(Duration.ofSeconds(30))))
                    .isNull();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void a_summary_that_takes_longer_than_a_tool_call_may_gives_none_and_is_interrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Tool slow = summarising((args, ctx) -> {
            try {
                never.await();
                return Optional.of("too late");
            } catch (InterruptedException e) {
                interrupted.countDown();
                return Optional.of("interrupted");
            }
        });

        assertThat(summaries.summarise(slow, CALL, scope(Duration.ofMillis(200))))
                .isNull();
        assertThat(interrupted.await(30, TimeUnit.SECONDS))
                .as("the lookup is told to stop")
                .isTrue();
    }
}
