package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.domain.ListingJson;
import dev.baton.tasks.domain.NewTask;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskException;
import dev.baton.tasks.domain.TaskFilter;
import dev.baton.tasks.domain.TaskPriority;
import dev.baton.tasks.domain.TaskUpdate;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The JSON form of tasks, shared by the tools and the REST API ({@code /v1/tasks}), so both speak one shape:
 *
 * <pre>{"id", "title", "description"|null, "dueAt"|null, "priority", "tags", "status", "createdAt", "updatedAt"}</pre>
 *
 * Instants are ISO-8601 UTC ({@code 2026-11-21T23:59:59Z}). Parsing reads request bodies and tool arguments
 * with the domain's validation and refuses unknown fields, so neither path can smuggle in an owner or an id.
 * Every failure is a {@link TaskException}: invalid_request for a wrong shape, invalid_argument for a bad value.
 */
public final class TaskJson {
    /** The mapper the task JSON is built with; callers may reuse it to serialise results. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private static final Set<String> TASK_FIELDS = Set.of("title", "description", "dueDate", "priority", "tags");
    private static final Set<String> FILTER_FIELDS = Set.of("status", "priority", "due", "tag");

    private TaskJson() {}

    /** The TASK shape of a task; owner fields are never included. */
    public static ObjectNode toJson(Task task) {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("id", task.id());
        json.put("title", task.title());
        json.put("description", task.description());
        json.put("dueAt", instant(task.dueAt()));
        json.put("priority", task.priority().wireName());
        ArrayNode tags = json.putArray("tags");
        task.tags().forEach(tags::add);
        json.put("status", task.status().wireName());
        json.put("createdAt", instant(task.createdAt()));
        json.put("updatedAt", instant(task.updatedAt()));
        return json;
    }

    /** {@code {"tasks": [TASK...], "count": N}} */
    public static ObjectNode toJson(List<Task> tasks) {
        return ListingJson.of("tasks", tasks, TaskJson::toJson);
    }

    /**
     * Reads a new task: {@code {title, description?, dueDate?, priority?, tags?}}.
     *
     * @throws TaskException invalid_argument for a missing title, a wrong type, an unknown field or a bad value
     */
    public static NewTask parseNewTask(JsonNode body) {
        JsonFields fields = fields(body, TASK_FIELDS);
        if (!fields.hasNonNull("title")) throw TaskException.malformed("title is required");
        return NewTask.of(
                fields.text("title"),
                fields.optionalText("description"),
                fields.optionalText("dueDate"),
                fields.optionalText("priority"),
                fields.has("tags") ? fields.texts("tags") : List.of());
    }

    /**
     * Reads changes to a task: any of {@code {title, description, dueDate, priority, tags}}; a null description
     * or dueDate clears it. An empty object is a valid (empty) update; the service refuses to apply it.
     *
     * @throws TaskException invalid_argument for a wrong type, an unknown field or a bad value
     */
    public static TaskUpdate parseUpdate(JsonNode body) {
        JsonFields fields = fields(body, TASK_FIELDS);
        TaskUpdate update = TaskUpdate.NONE;
        if (fields.has("title")) update = update.withTitle(fields.text("title"));
        if (fields.has("description")) update = update.withDescription(fields.optionalText("description"));
        if (fields.has("dueDate")) update = update.withDueDate(fields.optionalText("dueDate"));
        if (fields.has("priority")) update = update.withPriority(TaskPriority.parse(fields.text("priority")));
        if (fields.has("tags")) update = update.withTags(fields.texts("tags"));
        return update;
    }

    /**
     * Reads a listing filter: any of {@code {status, priority, due, tag}}, all strings.
     *
     * @throws TaskException invalid_argument for a wrong type, an unknown field or a bad value
     */
    public static TaskFilter parseFilter(JsonNode body) {
        JsonFields fields = fields(body, FILTER_FIELDS);
        return TaskFilter.of(
                fields.optionalText("status"),
                fields.optionalText("priority"),
                fields.optionalText("due"),
                fields.optionalText("tag"));
    }

    // no body at all (a listing without a query, a tool called without arguments) reads as no fields
    private static JsonFields fields(JsonNode body, Set<String> allowed) {
        JsonNode object = body == null || body.isNull() || body.isMissingNode() ? MAPPER.createObjectNode() : body;
        return JsonFields.of(object, allowed, TaskException::malformed);
    }

    private static String instant(Instant value) {
        return value == null ? null : value.toString();
    }
}
