package dev.baton.tasks.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.core.turn.Cancellation;
import dev.baton.tasks.TaskModule;
import dev.baton.tasks.domain.TaskFilter;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.support.Principals;
import dev.baton.tasks.support.TestDatabases;
import dev.baton.testkit.time.SettableClock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Each task tool over a real SQLite database: argument mapping, result shape and refusals. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskToolsIT {
    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.250Z");
    private static final List<String> TASK_FIELDS =
            List.of("id", "title", "description", "dueAt", "priority", "tags", "status", "createdAt", "updatedAt");

    private final SettableClock clock = new SettableClock(NOW);
    private TestDatabases.Opened opened;
    private TaskModule module;
    private Principal alice;

    @BeforeAll
    void open() throws Exception {
        opened = TestDatabases.sqlite();
        module = TaskModule.create(opened.database(), clock);
    }

    @AfterAll
    void close() throws Exception {
        opened.close();
    }

    @BeforeEach
    void newUser() {
        clock.set(NOW);
        alice = Principals.newUser();
    }

    @Test
    void the_tool_source_is_called_tasks() {
        assertThat(module.toolSource().name()).isEqualTo("tasks");
    }

    @Test
    void add_task_maps_every_argument_and_returns_the_task() {
        JsonNode result = call("add_task", alice, """
                {"title": " Pay rent ", "description": "by transfer", "dueDate": "2026-12-01",
                 "priority": "high", "tags": ["Home", "money"]}""");

        JsonNode task = result.get("task");
        assertThat(fieldNames(result)).containsExactly("task");
        assertThat(fieldNames(task)).containsExactlyElementsOf(TASK_FIELDS);
        assertThat(task.get("id").asText())
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(task.get("title").asText()).isEqualTo("Pay rent");
        assertThat(task.get("description").asText()).isEqualTo("by transfer");
        assertThat(task.get("dueAt").asText()).isEqualTo("2026-12-01T23:59:59Z");
        assertThat(task.get("priority").asText()).isEqualTo("high");
        assertThat(task.get("tags")).hasSize(2);
        assertThat(task.get("tags").get(0).asText()).isEqualTo("home");
        assertThat(task.get("status").asText()).isEqualTo("open");
        assertThat(task.get("createdAt").asText()).isEqualTo("2026-11-21T10:15:30.250Z");
        assertThat(task.get("updatedAt").asText()).isEqualTo("2026-11-21T10:15:30.250Z");

        assertThat(module.service().get(alice, task.get("id").asText()).title()).isEqualTo("Pay rent");
    }

    @Test
    void a_task_without_optional_fields_shows_nulls_and_an_empty_tag_list() {
        JsonNode task = call("add_task", alice, "{\"title\": \"Buy milk\"}").get("task");

        assertThat(task.get("description").isNull()).isTrue();
        assertThat(task.get("dueAt").isNull()).isTrue();
        assertThat(task.get("priority").asText()).isEqualTo("medium");
        assertThat(task.get("tags").isArray()).isTrue();
        assertThat(task.get("tags")).isEmpty();
    }

    @Test
    void list_tasks_maps_the_filter_and_returns_tasks_with_their_count() {
        String work = id(call(
                "add_task",
                alice,
                "{\"title\": \"Work\", \"priority\": \"high\", \"dueDate\": \"2026-11-21\", \"tags\": [\"work\"]}"));
        call(
                "add_task",
                alice,
                "{\"title\": \"Homework\", \"priority\": \"high\", \"dueDate\": \"2026-11-21\", \"tags\": [\"homework\"]}");
        call(
                "add_task",
                alice,
                "{\"title\": \"Later\", \"priority\": \"high\", \"dueDate\": \"2026-11-30\", \"tags\": [\"work\"]}");
        call(
                "add_task",
                alice,
                "{\"title\": \"Low\", \"priority\": \"low\", \"dueDate\": \"2026-11-21\", \"tags\": [\"work\"]}");

        JsonNode result = call(
                "list_tasks",
                alice,
                "{\"status\": \"open\", \"priority\": \"high\", \"due\": \"today\", \"tag\": \"work\"}");

        assertThat(fieldNames(result)).containsExactly("tasks", "count");
        assertThat(result.get("count").asInt()).isEqualTo(1);
        assertThat(result.get("tasks")).hasSize(1);
        assertThat(result.get("tasks").get(0).get("id").asText()).isEqualTo(work);
        assertThat(fieldNames(result.get("tasks").get(0))).containsExactlyElementsOf(TASK_FIELDS);

        assertThat(call("list_tasks", alice, "{}").get("count").asInt()).isEqualTo(4);
    }

    @Test
    void complete_task_returns_the_completed_task() {
        String id = id(call("add_task", alice, "{\"title\": \"Finish\"}"));

        JsonNode result = call("complete_task", alice, "{\"taskId\": \"" + id + "\"}");

        assertThat(result.get("task").get("id").asText()).isEqualTo(id);
        assertThat(result.get("task").get("status").asText()).isEqualTo("completed");
        assertThat(call("list_tasks", alice, "{\"status\": \"completed\"}")
                        .get("count")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void update_task_changes_only_the_given_fields_and_null_clears() {
        String id = id(call(
                "add_task",
                alice,
                "{\"title\": \"Draft\", \"description\": \"notes\", \"dueDate\": \"2026-11-25\", \"tags\": [\"a\"]}"));

        JsonNode task = call("update_task", alice, """
                {"taskId": "%s", "title": "Final", "description": null, "priority": "low"}""".formatted(id)).get("task");

        assertThat(task.get("id").asText()).isEqualTo(id);
        assertThat(task.get("title").asText()).isEqualTo("Final");
        assertThat(task.get("description").isNull()).isTrue();
        assertThat(task.get("priority").asText()).isEqualTo("low");
        assertThat(task.get("dueAt").asText()).isEqualTo("2026-11-25T23:59:59Z");
        assertThat(task.get("tags").get(0).asText()).isEqualTo("a");
    }

    @Test
    void update_task_with_nothing_to_change_is_an_invalid_argument() {
        String id = id(call("add_task", alice, "{\"title\": \"Same\"}"));

        assertThat(refusal("update_task", alice, "{\"taskId\": \"" + id + "\"}").code())
                .isEqualTo("invalid_argument");
    }

    @Test
    void delete_task_without_confirmation_is_refused_and_keeps_the_task() {
        String id = id(call("add_task", alice, "{\"title\": \"Precious\"}"));

        ToolException refused = refusal("delete_task", alice, "{\"taskId\": \"" + id + "\", \"confirmation\": false}");
        ToolException missing = refusal("delete_task", alice, "{\"taskId\": \"" + id + "\"}");

        assertThat(refused.code()).isEqualTo("confirmation_required");
        assertThat(refused.getMessage()).contains("confirmation: true");
        assertThat(missing.code()).isEqualTo("confirmation_required");
        assertThat(module.service().get(alice, id).title()).isEqualTo("Precious");
    }

    @Test
    void delete_task_with_confirmation_deletes_and_says_so() {
        String id = id(call("add_task", alice, "{\"title\": \"Gone soon\"}"));

        JsonNode result = call("delete_task", alice, "{\"taskId\": \"" + id + "\", \"confirmation\": true}");

        assertThat(result)
                .isEqualTo(
                        TaskJson.MAPPER.createObjectNode().put("deleted", true).put("taskId", id));
        assertThat(module.service().list(alice, TaskFilter.of("all", null, null, null)))
                .isEmpty();
    }

    @Test
    void delete_task_summarises_a_call_with_the_tasks_title_and_due_day_as_the_caller() throws Exception {
        String id = id(call("add_task", alice, "{\"title\": \"Buy  wax\", \"dueDate\": \"2026-12-01\"}"));
        String plain = id(call("add_task", alice, "{\"title\": \"call mom\"}"));
        JsonNode args = TaskJson.MAPPER.readTree("{\"taskId\": \"" + id + "\", \"confirmation\": true}");

        assertThat(tool("delete_task").summary(args, context(alice)))
                .contains("Delete the task 'Buy wax' (due 2026-12-01)");
        assertThat(tool("delete_task")
                        .summary(
                                TaskJson.MAPPER.readTree("{\"taskId\": \"" + plain + "\", \"confirmation\": true}"),
                                context(alice)))
                .contains("Delete the task 'call mom'");
        // another user's task, or none: nothing from the domain, so the runtime shows the raw arguments
        assertThat(tool("delete_task").summary(args, context(Principals.newUser())))
                .isEmpty();
        assertThat(tool("delete_task").summary(TaskJson.MAPPER.readTree("{\"taskId\": \"ghost\"}"), context(alice)))
                .isEmpty();
        assertThat(tool("delete_task").summary(TaskJson.MAPPER.readTree("{}"), context(alice)))
                .isEmpty();
        // other tools have no summary of their own
        assertThat(tool("list_tasks").summary(TaskJson.MAPPER.readTree("{}"), context(alice)))
                .isEmpty();
    }

    @Test
    void domain_refusals_become_tool_exceptions_with_the_same_code() {
        assertThat(refusal("add_task", alice, "{\"title\": \"   \"}").code()).isEqualTo("invalid_argument");
        assertThat(refusal("add_task", alice, "{\"title\": \"x\", \"dueDate\": \"next friday\"}")
                        .getMessage())
                .contains("dueDate must be an ISO date");
        assertThat(refusal("complete_task", alice, "{\"taskId\": \"no-such-task\"}")
                        .code())
                .isEqualTo("not_found");

        Principal readOnly = Principals.user(alice.userId(), alice.tenantId(), Set.of(TaskService.READ));
        assertThat(refusal("add_task", readOnly, "{\"title\": \"x\"}").code()).isEqualTo("permission_denied");
    }

    @Test
    void another_users_task_is_not_found_through_every_tool() {
        String id = id(call("add_task", alice, "{\"title\": \"Alice only\"}"));
        Principal bob = Principals.newUser();

        assertThat(refusal("complete_task", bob, "{\"taskId\": \"" + id + "\"}").code())
                .isEqualTo("not_found");
        assertThat(refusal("update_task", bob, "{\"taskId\": \"" + id + "\", \"title\": \"Bob\"}")
                        .code())
                .isEqualTo("not_found");
        assertThat(refusal("delete_task", bob, "{\"taskId\": \"" + id + "\", \"confirmation\": true}")
                        .code())
                .isEqualTo("not_found");
        assertThat(call("list_tasks", bob, "{\"status\": \"all\"}").get("count").asInt())
                .isZero();
        assertThat(module.service().get(alice, id).title()).isEqualTo("Alice only");
    }

    @Test
    void a_user_id_in_the_arguments_is_refused_even_if_schema_validation_were_skipped() {
        Principal bob = Principals.newUser();

        for (String tool : List.of("add_task", "update_task", "list_tasks")) {
            ObjectNode args = TaskJson.MAPPER.createObjectNode().put("userId", bob.userId());
            if (!tool.equals("list_tasks")) args.put("title", "Planted");
            if (tool.equals("update_task")) args.put("taskId", id(call("add_task", alice, "{\"title\": \"t\"}")));
            ToolException refused = refusal(tool, alice, args.toString());
            assertThat(refused.code()).as(tool).isEqualTo("invalid_request");
            assertThat(refused.getMessage()).as(tool).contains("unknown field 'userId'");
        }
        assertThat(module.service().list(bob, TaskFilter.of("all", null, null, null)))
                .isEmpty();
    }

    @Test
    void tasks_are_always_created_for_the_caller_in_the_context() {
        Principal bob = Principals.newUser();

        String id = id(call("add_task", bob, "{\"title\": \"Bob's\"}"));

        assertThat(module.service().get(bob, id).owner().userId()).isEqualTo(bob.userId());
        assertThat(module.service().list(alice, TaskFilter.of("all", null, null, null)))
                .isEmpty();
    }

    @Test
    void get_current_time_reports_the_clock_in_utc() {
        JsonNode result = call("get_current_time", alice, "{}");

        assertThat(result)
                .isEqualTo(TaskJson.MAPPER
                        .createObjectNode()
                        .put("now", "2026-11-21T10:15:30Z")
                        .put("date", "2026-11-21")
                        .put("dayOfWeek", "SATURDAY")
                        .put("timezone", "UTC"));
    }

    private JsonNode call(String name, Principal principal, String arguments) {
        try {
            return tool(name).execute(TaskJson.MAPPER.readTree(arguments), context(principal));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    private ToolException refusal(String name, Principal principal, String arguments) {
        try {
            JsonNode result = call(name, principal, arguments);
            throw new AssertionError(name + " should have been refused but returned " + result);
        } catch (ToolException e) {
            return e;
        }
    }

    private Tool tool(String name) {
        return module.toolSource().tools().stream()
                .filter(t -> t.definition().name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static ToolContext context(Principal principal) {
        return new ToolContext(principal, "session-1", Instant.now().plusSeconds(10), new Cancellation());
    }

    private static String id(JsonNode addResult) {
        return addResult.get("task").get("id").asText();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
