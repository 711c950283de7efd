package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskAgentScriptTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T10:15:30Z"), ZoneOffset.UTC);
    private static final SimulatorScript SCRIPT = TaskAgentScript.create(CLOCK);

    private static final String MILK = task("0193a1b2-0000-7000-8000-000000000001", "buy milk", null);
    private static final String OAT_MILK =
            task("0193a1b2-0000-7000-8000-000000000002", "buy oat milk", "2026-11-22T00:00:00Z");
    private static final String REPORT = task("0193a1b2-0000-7000-8000-000000000003", "write report", null);

    private static String task(String id, String title, String dueAt) {
        return "{\"id\":\"" + id + "\",\"title\":\"" + title + "\",\"description\":null,\"dueAt\":"
                + (dueAt == null ? "null" : "\"" + dueAt + "\"")
                + ",\"priority\":\"medium\",\"tags\":[],\"status\":\"open\",\"createdAt\":\"2026-11-20T09:00:00Z\","
                + "\"updatedAt\":\"2026-11-20T09:00:00Z\"}";
    }

    private static String list(String... tasks) {
        return "{\"tasks\":[" + String.join(",", tasks) + "],\"count\":" + tasks.length + "}";
    }

    private static Reply answer(ChatBody body) {
        return SCRIPT.answer(body.recorded()).reply();
    }

    private static Reply.ToolCall onlyCall(Reply reply) {
        assertThat(reply).isInstanceOf(Reply.ToolCalls.class);
        var calls = ((Reply.ToolCalls) reply).calls();
        assertThat(calls).hasSize(1);
        return calls.getFirst();
    }

    private static JsonNode arguments(Reply.ToolCall call) throws Exception {
        return ChatBody.JSON.readTree(call.argumentsJson());
    }

    private static String text(Reply reply) {
        assertThat(reply).isInstanceOf(Reply.Text.class);
        return ((Reply.Text) reply).content();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "add a task to buy groceries tomorrow | buy groceries | 2026-11-22",
                "add buy milk                         | buy milk      |",
                "Remind me to call mom today.         | call mom      | 2026-11-21",
                "please add task: water the plants    | water the plants |",
                "add \"file taxes\" on 2026-12-01      | file taxes    | 2026-12-01",
            })
    void add_phrasings_call_add_task_with_title_and_due_date(String message, String title, String dueDate)
            throws Exception {
        var call = onlyCall(answer(ChatBody.create().taskTools().user(message)));

        assertThat(call.name()).isEqualTo("add_task");
        var arguments = arguments(call);
        assertThat(arguments.path("title").asText()).isEqualTo(title);
        if (dueDate == null) {
            assertThat(arguments.has("dueDate")).isFalse();
        } else {
            assertThat(arguments.path("dueDate").asText()).isEqualTo(dueDate);
        }
    }

    @Test
    void a_priority_phrase_becomes_the_priority_argument() throws Exception {
        var call = onlyCall(answer(ChatBody.create().taskTools().user("add pay rent tomorrow, high priority")));

        assertThat(arguments(call).path("priority").asText()).isEqualTo("high");
        assertThat(arguments(call).path("title").asText()).isEqualTo("pay rent");
        assertThat(arguments(call).path("dueDate").asText()).isEqualTo("2026-11-22");
    }

    @Test
    void an_add_task_result_is_confirmed_with_title_and_due_date() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("add a task to buy groceries tomorrow")
                .assistantCalls("call_1", "add_task", "{\"title\":\"buy groceries\",\"dueDate\":\"2026-11-22\"}")
                .toolResult("call_1", "{\"task\":" + task("t1", "buy groceries", "2026-11-22T00:00:00Z") + "}"));

        assertThat(text(reply)).isEqualTo("Done — I've added “buy groceries” to your tasks, due 2026-11-22.");
    }

    @Test
    void two_to_dos_joined_by_and_become_two_add_task_calls_in_one_reply() throws Exception {
        var reply =
                answer(ChatBody.create().taskTools().user("add task to buy groceries and call the dentist tomorrow"));

        assertThat(reply).isInstanceOf(Reply.ToolCalls.class);
        var calls = ((Reply.ToolCalls) reply).calls();
        assertThat(calls).extracting(Reply.ToolCall::name).containsExactly("add_task", "add_task");
        assertThat(arguments(calls.get(0)).path("title").asText()).isEqualTo("buy groceries");
        assertThat(arguments(calls.get(1)).path("title").asText()).isEqualTo("call the dentist");
        assertThat(arguments(calls.get(1)).path("dueDate").asText()).isEqualTo("2026-11-22");
    }

    @Test
    void and_between_things_rather_than_to_dos_stays_one_task() throws Exception {
        var call = onlyCall(answer(ChatBody.create().taskTools().user("add buy salt and pepper")));

        assertThat(arguments(call).path("title").asText()).isEqualTo("buy salt and pepper");
    }

    @Test
    void several_added_tasks_are_confirmed_together() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("add task to buy groceries and call the dentist")
                .assistantCalls("call_1", "add_task", "{\"title\":\"buy groceries\"}")
                .toolResult("call_1", "{\"task\":" + task("t1", "buy groceries", null) + "}")
                .assistantCalls("call_2", "add_task", "{\"title\":\"call the dentist\"}")
                .toolResult("call_2", "{\"task\":" + task("t2", "call the dentist", null) + "}"));

        assertThat(text(reply)).isEqualTo("I've added two tasks to your list: “buy groceries” and “call the dentist”.");
    }

    @ParameterizedTest
    @CsvSource({"list my tasks", "What are my tasks?", "show my tasks", "which tasks do I have"})
    void list_phrasings_call_list_tasks(String message) {
        var call = onlyCall(answer(ChatBody.create().taskTools().user(message)));

        assertThat(call.name()).isEqualTo("list_tasks");
        assertThat(call.argumentsJson()).isEqualTo("{}");
    }

    @Test
    void a_list_result_is_read_out_with_due_dates() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("list my tasks")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(MILK, OAT_MILK)));

        assertThat(text(reply)).isEqualTo("You have 2 open tasks:\n1. buy milk\n2. buy oat milk (due 2026-11-22)");
    }

    @Test
    void an_empty_list_says_so() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("what are my tasks")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list()));

        assertThat(text(reply)).isEqualTo("You have no open tasks.");
    }

    @ParameterizedTest
    @CsvSource({"complete write report", "finish the report", "mark write report as done", "mark done report"})
    void completing_by_name_lists_tasks_first_and_never_invents_an_id(String message) {
        var call = onlyCall(answer(ChatBody.create().taskTools().user(message)));

        assertThat(call.name()).isEqualTo("list_tasks");
    }

    @Test
    void completing_with_exactly_one_match_calls_complete_task_with_its_id() throws Exception {
        var call = onlyCall(answer(ChatBody.create()
                .taskTools()
                .user("complete the report")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(MILK, REPORT))));

        assertThat(call.name()).isEqualTo("complete_task");
        assertThat(arguments(call).path("taskId").asText()).isEqualTo("0193a1b2-0000-7000-8000-000000000003");
    }

    @Test
    void completing_with_no_match_says_nothing_matched() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("complete walk the dog")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(MILK, REPORT)));

        assertThat(text(reply))
                .isEqualTo(
                        "I couldn't find a task matching “walk the dog”. Would you like me to show your task list, or add"
                                + " “walk the dog” as a new task?");
    }

    @Test
    void completing_with_several_matches_asks_which_one() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("complete milk")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(MILK, OAT_MILK, REPORT)));

        assertThat(text(reply))
                .isEqualTo(
                        "I found 2 tasks matching “milk”:\n1. buy milk\n2. buy oat milk (due 2026-11-22)\nWhich one do you mean?");
    }

    @Test
    void an_exact_title_wins_over_partial_matches() throws Exception {
        var call = onlyCall(answer(ChatBody.create()
                .taskTools()
                .user("complete buy milk")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(MILK, OAT_MILK))));

        assertThat(arguments(call).path("taskId").asText()).isEqualTo("0193a1b2-0000-7000-8000-000000000001");
    }

    @Test
    void a_completed_task_is_celebrated() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("complete the report")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(REPORT))
                .assistantCalls("call_2", "complete_task", "{\"taskId\":\"0193a1b2-0000-7000-8000-000000000003\"}")
                .toolResult("call_2", "{\"task\":" + REPORT.replace("\"open\"", "\"completed\"") + "}"));

        assertThat(text(reply)).isEqualTo("Nice — “write report” is marked as done.");
    }

    @Test
    void deleting_by_name_confirms_the_call_and_reports_the_title() throws Exception {
        var base = ChatBody.create()
                .taskTools()
                .user("delete oat milk")
                .assistantCalls("call_1", "list_tasks", "{}")
                .toolResult("call_1", list(MILK, OAT_MILK));

        var call = onlyCall(answer(base));
        assertThat(call.name()).isEqualTo("delete_task");
        assertThat(arguments(call).path("taskId").asText()).isEqualTo("0193a1b2-0000-7000-8000-000000000002");
        assertThat(arguments(call).path("confirmation").asBoolean()).isTrue();

        var done = answer(base.assistantCalls("call_2", "delete_task", call.argumentsJson())
                .toolResult("call_2", "{\"deleted\":true,\"taskId\":\"0193a1b2-0000-7000-8000-000000000002\"}"));
        assertThat(text(done)).isEqualTo("I've deleted “buy oat milk”.");
    }

    @Test
    void time_questions_call_get_current_time_and_state_the_answer() {
        var timeResult =
                "{\"now\":\"2026-11-21T10:15:30Z\",\"date\":\"2026-11-21\",\"dayOfWeek\":\"SATURDAY\",\"timezone\":\"UTC\"}";

        assertThat(onlyCall(answer(ChatBody.create().taskTools().user("what time is it?")))
                        .name())
                .isEqualTo("get_current_time");
        assertThat(text(answer(ChatBody.create()
                        .taskTools()
                        .user("what time is it?")
                        .assistantCalls("c", "get_current_time", "{}")
                        .toolResult("c", timeResult))))
                .isEqualTo("It's 10:15 UTC on Saturday, 2026-11-21.");
        assertThat(text(answer(ChatBody.create()
                        .taskTools()
                        .user("what's the date")
                        .assistantCalls("c", "get_current_time", "{}")
                        .toolResult("c", timeResult))))
                .isEqualTo("Today is Saturday, 2026-11-21.");
    }

    @Test
    void a_tool_error_becomes_a_friendly_sentence() {
        var reply = answer(ChatBody.create()
                .taskTools()
                .user("add buy milk")
                .assistantCalls("c", "add_task", "{\"title\":\"buy milk\"}")
                .toolResult(
                        "c", "{\"error\":{\"code\":\"validation_failed\",\"message\":\"The title is too long.\"}}"));

        assertThat(text(reply)).isEqualTo("Sorry, I couldn't do that: The title is too long.");
    }

    @Test
    void anything_else_gets_help_that_admits_being_a_simulator() {
        var reply = text(answer(ChatBody.create().taskTools().user("tell me a joke")));

        assertThat(reply).contains("list my tasks").contains("Simulated model — set OPENAI_API_KEY");
    }

    @Test
    void a_tool_the_agent_does_not_offer_is_not_called() {
        var reply = answer(ChatBody.create().tools("list_tasks").user("add buy milk"));

        assertThat(text(reply)).contains("add_task").contains("does not offer");
    }
}
