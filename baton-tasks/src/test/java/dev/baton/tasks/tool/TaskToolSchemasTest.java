package dev.baton.tasks.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.baton.core.tool.Tool;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.support.UnusedTaskRepository;
import dev.baton.testkit.time.SettableClock;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tool schemas as the executor will apply them (networknt json-schema-validator, draft 2020-12): they accept
 * the contract's arguments and reject everything else, in particular any attempt to name a user.
 */
class TaskToolSchemasTest {
    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    // the service is never called here: only definitions are read
    private final Map<String, Tool> tools = new TaskToolSource(
                    new TaskService(new UnusedTaskRepository(), Clock.systemUTC()), new SettableClock(Instant.EPOCH))
            .tools().stream().collect(Collectors.toMap(t -> t.definition().name(), t -> t));

    @Test
    void the_source_offers_exactly_the_contract_tools_with_their_permissions() {
        assertThat(tools.keySet())
                .containsExactlyInAnyOrder(
                        "add_task", "list_tasks", "complete_task", "update_task", "delete_task", "get_current_time");
        assertThat(permissions("list_tasks")).containsExactly("tasks:read:self");
        for (String write : List.of("add_task", "complete_task", "update_task", "delete_task")) {
            assertThat(permissions(write)).as(write).containsExactly("tasks:write:self");
        }
        assertThat(permissions("get_current_time")).isEmpty();
    }

    @Test
    void only_delete_task_is_destructive_so_only_it_waits_for_the_users_approval_by_default() {
        tools.forEach((name, tool) ->
                assertThat(tool.definition().destructive()).as(name).isEqualTo(name.equals("delete_task")));
    }

    @Test
    void every_object_in_every_schema_forbids_additional_properties() {
        tools.forEach((name, tool) -> {
            JsonNode schema = tool.definition().parametersSchema();
            assertThat(schema.path("type").asText()).as(name).isEqualTo("object");
            assertThat(schema.path("additionalProperties").isBoolean()).as(name).isTrue();
            assertThat(schema.path("additionalProperties").booleanValue())
                    .as(name)
                    .isFalse();
        });
    }

    @Test
    void contract_arguments_are_valid() {
        assertValid("add_task", """
                {"title": "Pay rent", "description": "by transfer", "dueDate": "2026-12-01",
                 "priority": "high", "tags": ["home", "money"]}""");
        assertValid("add_task", "{\"title\": \"x\", \"dueDate\": \"2026-12-01T09:00:00Z\"}");
        assertValid("list_tasks", "{}");
        assertValid(
                "list_tasks",
                "{\"status\": \"all\", \"priority\": \"low\", \"due\": \"this_week\", \"tag\": \"work\"}");
        assertValid("list_tasks", "{\"due\": \"2026-12-01\"}");
        assertValid("complete_task", "{\"taskId\": \"0193c4e0-0000-7000-8000-000000000001\"}");
        assertValid(
                "update_task", "{\"taskId\": \"t1\", \"title\": \"New\", \"description\": null, \"dueDate\": null}");
        assertValid("delete_task", "{\"taskId\": \"t1\", \"confirmation\": true}");
        assertValid("delete_task", "{\"taskId\": \"t1\", \"confirmation\": false}");
        assertValid("get_current_time", "{}");
    }

    @Test
    void no_tool_accepts_a_user_id_or_any_other_unknown_field() throws Exception {
        Map<String, String> minimal = Map.of(
                "add_task", "{\"title\": \"x\"}",
                "list_tasks", "{\"status\": \"open\"}",
                "complete_task", "{\"taskId\": \"t1\"}",
                "update_task", "{\"taskId\": \"t1\", \"title\": \"y\"}",
                "delete_task", "{\"taskId\": \"t1\", \"confirmation\": true}",
                "get_current_time", "{}");
        for (var entry : minimal.entrySet()) {
            assertValid(entry.getKey(), entry.getValue());
            for (String extra : List.of("userId", "user_id", "tenantId", "owner")) {
                ObjectNode withExtra = (ObjectNode) TaskJson.MAPPER.readTree(entry.getValue());
                withExtra.put(extra, "bob");
                assertInvalid(entry.getKey(), withExtra.toString());
            }
        }
    }

    @Test
    void wrong_values_are_rejected_before_a_tool_runs() {
        assertInvalid("add_task", "{}");
        assertInvalid("add_task", "{\"title\": \"\"}");
        assertInvalid("add_task", "{\"title\": \"" + "x".repeat(201) + "\"}");
        assertInvalid("add_task", "{\"title\": \"x\", \"priority\": \"urgent\"}");
        assertInvalid(
                "add_task",
                "{\"title\": \"x\", \"tags\": [\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\"10\",\"11\"]}");
        assertInvalid("list_tasks", "{\"status\": \"done\"}");
        assertInvalid("list_tasks", "{\"due\": \"someday\"}");
        assertInvalid("list_tasks", "{\"due\": \"today or tomorrow\"}");
        assertInvalid("complete_task", "{}");
        assertInvalid("update_task", "{\"title\": \"no id\"}");
        assertInvalid("update_task", "{\"taskId\": \"t1\", \"title\": null}");
        assertInvalid("delete_task", "{\"taskId\": \"t1\"}");
        assertInvalid("delete_task", "{\"taskId\": \"t1\", \"confirmation\": \"yes\"}");
    }

    private Set<String> permissions(String tool) {
        return tools.get(tool).definition().requiredPermissions();
    }

    private void assertValid(String tool, String arguments) {
        assertThat(errors(tool, arguments)).as(tool + " " + arguments).isEmpty();
    }

    private void assertInvalid(String tool, String arguments) {
        assertThat(errors(tool, arguments)).as(tool + " " + arguments).isNotEmpty();
    }

    private List<Error> errors(String tool, String arguments) {
        Schema schema = REGISTRY.getSchema(
                tools.get(tool).definition().parametersSchema().toString(), InputFormat.JSON);
        return schema.validate(arguments, InputFormat.JSON);
    }
}
