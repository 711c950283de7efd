package dev.baton.tasks.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.tasks.domain.DueWindow;
import dev.baton.tasks.domain.NewTask;
import dev.baton.tasks.domain.Patch;
import dev.baton.tasks.domain.StatusScope;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskException;
import dev.baton.tasks.domain.TaskFilter;
import dev.baton.tasks.domain.TaskOwner;
import dev.baton.tasks.domain.TaskPriority;
import dev.baton.tasks.domain.TaskUpdate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The JSON shape shared by tools and REST bodies, and its refusals (REST bodies are not schema-checked). */
class TaskJsonTest {

    @Test
    void a_task_renders_as_the_contract_shape_without_owner_fields() throws Exception {
        Task task = Task.create(
                "0193c4e0-0000-7000-8000-000000000001",
                new TaskOwner("acme", "alice"),
                NewTask.of("Pay rent", null, "2026-12-01", "high", List.of("home")),
                Instant.parse("2026-11-21T10:15:30Z"));

        assertThat(TaskJson.toJson(task)).isEqualTo(TaskJson.MAPPER.readTree("""
                {"id": "0193c4e0-0000-7000-8000-000000000001", "title": "Pay rent", "description": null,
                 "dueAt": "2026-12-01T23:59:59Z", "priority": "high", "tags": ["home"], "status": "open",
                 "createdAt": "2026-11-21T10:15:30Z", "updatedAt": "2026-11-21T10:15:30Z"}"""));
    }

    @Test
    void a_create_body_maps_onto_a_new_task() {
        NewTask parsed = TaskJson.parseNewTask(
                json(
                        "{\"title\": \"A\", \"description\": \"B\", \"dueDate\": \"2026-12-01T09:00:00Z\", \"priority\": \"low\", \"tags\": [\"X\"]}"));

        assertThat(parsed)
                .isEqualTo(
                        new NewTask("A", "B", Instant.parse("2026-12-01T09:00:00Z"), TaskPriority.LOW, List.of("x")));
    }

    @Test
    void create_bodies_with_wrong_shapes_are_refused_precisely() {
        assertMalformed(() -> TaskJson.parseNewTask(json("{}")), "title is required");
        assertMalformed(() -> TaskJson.parseNewTask(json("{\"title\": 5}")), "title must be a string");
        assertMalformed(
                () -> TaskJson.parseNewTask(json("{\"title\": \"a\", \"tags\": \"x\"}")), "tags must be an array");
        assertMalformed(
                () -> TaskJson.parseNewTask(json("{\"title\": \"a\", \"tags\": [1]}")), "tags must be an array");
        assertMalformed(
                () -> TaskJson.parseNewTask(json("{\"title\": \"a\", \"userId\": \"bob\"}")), "unknown field 'userId'");
        assertMalformed(() -> TaskJson.parseNewTask(json("[]")), "expected a JSON object");
    }

    @Test
    void an_update_body_distinguishes_absent_from_null() {
        TaskUpdate update = TaskJson.parseUpdate(json("{\"description\": null, \"priority\": \"high\"}"));

        assertThat(update.title()).isEmpty();
        assertThat(update.description()).isEqualTo(Patch.clear());
        assertThat(update.dueAt()).isEqualTo(Patch.keep());
        assertThat(update.priority()).isEqualTo(Optional.of(TaskPriority.HIGH));
        assertThat(update.tags()).isEmpty();
        assertThat(TaskJson.parseUpdate(json("{}")).isEmpty()).isTrue();
        assertMalformed(() -> TaskJson.parseUpdate(json("{\"title\": null}")), "title must be a string");
        assertMalformed(() -> TaskJson.parseUpdate(json("{\"taskId\": \"t\"}")), "unknown field 'taskId'");
    }

    @Test
    void a_filter_maps_each_field() {
        TaskFilter filter = TaskJson.parseFilter(
                json("{\"status\": \"all\", \"priority\": \"low\", \"due\": \"overdue\", \"tag\": \"Work\"}"));

        assertThat(filter)
                .isEqualTo(new TaskFilter(StatusScope.ALL, TaskPriority.LOW, new DueWindow.Overdue(), "work"));
        assertThat(TaskJson.parseFilter(json("{}"))).isEqualTo(TaskFilter.OPEN);
        assertInvalid(() -> TaskJson.parseFilter(json("{\"due\": \"later\"}")), "due must be one of");
    }

    private static JsonNode json(String text) {
        try {
            return TaskJson.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void assertInvalid(Runnable call, String messagePart) {
        assertRefused(call, "invalid_argument", messagePart);
    }

    private static void assertMalformed(Runnable call, String messagePart) {
        assertRefused(call, "invalid_request", messagePart);
    }

    private static void assertRefused(Runnable call, String code, String messagePart) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(TaskException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(messagePart);
        });
    }
}
