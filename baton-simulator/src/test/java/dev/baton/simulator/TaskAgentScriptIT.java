package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The task agent script over real HTTP, played the way an orchestrator would: call, run the tool, call again. */
class TaskAgentScriptIT {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T10:15:30Z"), ZoneOffset.UTC);

    private LlmSimulator sim;
    private SimClient client;

    @BeforeEach
    void start() {
        sim = LlmSimulator.start(TaskAgentScript.create(CLOCK));
        client = new SimClient(sim.baseUrl());
    }

    @AfterEach
    void stop() {
        client.close();
        sim.close();
    }

    @Test
    void add_task_round_trip_ends_with_a_confirmation() throws Exception {
        var conversation = ChatBody.create()
                .system("You manage the user's tasks.")
                .taskTools()
                .user("add a task to buy groceries tomorrow");

        var first = client.stream(conversation.stream(true).json());
        var call = first.contentChunks()
                .getFirst()
                .path("choices")
                .path(0)
                .path("delta")
                .path("tool_calls")
                .path(0);
        var arguments = new StringBuilder();
        first.contentChunks()
                .forEach(c -> arguments.append(c.path("choices")
                        .path(0)
                        .path("delta")
                        .path("tool_calls")
                        .path(0)
                        .path("function")
                        .path("arguments")
                        .asText()));
        assertThat(call.path("function").path("name").asText()).isEqualTo("add_task");
        assertThat(ChatBody.JSON.readTree(arguments.toString()))
                .isEqualTo(ChatBody.JSON.readTree("{\"title\":\"buy groceries\",\"dueDate\":\"2026-11-22\"}"));

        var callId = call.path("id").asText();
        var taskJson = "{\"task\":{\"id\":\"0193a1b2-0000-7000-8000-00000000000a\",\"title\":\"buy groceries\","
                + "\"description\":null,\"dueAt\":\"2026-11-22T00:00:00Z\",\"priority\":\"medium\",\"tags\":[],"
                + "\"status\":\"open\",\"createdAt\":\"2026-11-21T10:15:31Z\",\"updatedAt\":\"2026-11-21T10:15:31Z\"}}";
        var second = client.stream(conversation
                .assistantCalls(callId, "add_task", arguments.toString())
                .toolResult(callId, taskJson)
                .json());

        assertThat(second.done()).isTrue();
        assertThat(second.text()).isEqualTo("Done — I've added “buy groceries” to your tasks, due 2026-11-22.");
        var recorded = sim.awaitRequest(1, Duration.ofSeconds(5));
        assertThat(recorded.lastToolResult())
                .hasValueSatisfying(r -> assertThat(r.toolName()).isEqualTo("add_task"));
        assertThat(recorded.toolNames()).contains("add_task", "list_tasks", "complete_task", "delete_task");
    }

    @Test
    void completing_by_name_goes_through_list_tasks_then_complete_task() {
        var conversation = ChatBody.create().taskTools().user("complete write report");

        var listCall = client.postJson(conversation.json())
                .path("choices")
                .path(0)
                .path("message")
                .path("tool_calls")
                .path(0);
        assertThat(listCall.path("function").path("name").asText()).isEqualTo("list_tasks");

        var listResult = "{\"tasks\":[{\"id\":\"t-1\",\"title\":\"buy milk\",\"dueAt\":null,\"status\":\"open\"},"
                + "{\"id\":\"t-2\",\"title\":\"Write report\",\"dueAt\":null,\"status\":\"open\"}],\"count\":2}";
        conversation
                .assistantCalls(listCall.path("id").asText(), "list_tasks", "{}")
                .toolResult(listCall.path("id").asText(), listResult);
        var completeCall = client.postJson(conversation.json())
                .path("choices")
                .path(0)
                .path("message")
                .path("tool_calls")
                .path(0);
        assertThat(completeCall.path("function").path("name").asText()).isEqualTo("complete_task");
        assertThat(completeCall.path("function").path("arguments").asText()).isEqualTo("{\"taskId\":\"t-2\"}");

        conversation
                .assistantCalls(completeCall.path("id").asText(), "complete_task", "{\"taskId\":\"t-2\"}")
                .toolResult(
                        completeCall.path("id").asText(),
                        "{\"task\":{\"id\":\"t-2\",\"title\":\"Write report\",\"status\":\"completed\"}}");
        var answer = client.postJson(conversation.json())
                .path("choices")
                .path(0)
                .path("message")
                .path("content")
                .asText();
        assertThat(answer).isEqualTo("Nice — “Write report” is marked as done.");
    }
}
