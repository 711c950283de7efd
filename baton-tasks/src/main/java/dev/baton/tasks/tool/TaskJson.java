package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.tasks.domain.NewTask;
import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskException;
import dev.baton.tasks.domain.TaskFilter;
import dev.baton.tasks.domain.TaskPriority;
import dev.baton.tasks.domain.TaskUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The JSON form of tasks, shared by the tools and the REST API ({@code /v1/tasks}), so both speak one shape:
 *
 * <pre>{"id", "title", "description"|null, "dueAt"|null, "priority", "tags", "status", "createdAt", "updatedAt"}</pre>
 *
 * Instants are ISO-8601 UTC ({@code 2026-11-21T23:59:59Z}). Parsing reads request bodies and tool arguments
 * with the domain's validation and refuses unknown fields, so neither path can smuggle in an owner or an id.
 * Every failure is a {@link TaskException} with code invalid_argument.
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
        ObjectNode json = MAPPER.createObjectNode();
        ArrayNode array = json.putArray("tasks");
        tasks.forEach(t -> array.add(toJson(t)));
        json.put("count", tasks.size());
        return json;
    }

    /**
     * Reads a new task: {@code {title, description?, dueDate?, priority?, tags?}}.
     *
     * @throws TaskException invalid_argument for a missing title, a wrong type, an unknown field or a bad value
     */
    public static NewTask parseNewTask(JsonNode body) {
        ObjectNode object = object(body, TASK_FIELDS);
        if (!object.hasNonNull("title")) throw TaskException.malformed("title is required");
        return NewTask.of(
                text(object, "title"),
                optionalText(object, "description"),
                optionalText(object, "dueDate"),
                optionalText(object, "priority"),
                object.has("tags") ? tags(object.get("tags")) : List.of());
    }

    /**
     * Reads changes to a task: any of {@code {title, description, dueDate, priority, tags}}; a null description
     * or dueDate clears it. An empty object is a valid (empty) update; the service refuses to apply it.
     *
     * @throws TaskException invalid_argument for a wrong type, an unknown field or a bad value
     */
    public static TaskUpdate parseUpdate(JsonNode body) {
        ObjectNode object = object(body, TASK_FIELDS);
        TaskUpdate update = TaskUpdate.NONE;
        if (object.has("title")) update = update.withTitle(text(object, "title"));
        if (object.has("description")) update = update.withDescription(optionalText(object, "description"));
        if (object.has("dueDate")) update = update.withDueDate(optionalText(object, "dueDate"));
        if (object.has("priority")) update = update.withPriority(TaskPriority.parse(text(object, "priority")));
        if (object.has("tags")) update = update.withTags(tags(object.get("tags")));
        return update;
    }

    /**
     * Reads a listing filter: any of {@code {status, priority, due, tag}}, all strings.
     *
     * @throws TaskException invalid_argument for a wrong type, an unknown field or a bad value
     */
    public static TaskFilter parseFilter(JsonNode body) {
        ObjectNode object = object(body, FILTER_FIELDS);
        return TaskFilter.of(
                optionalText(object, "status"),
                optionalText(object, "priority"),
                optionalText(object, "due"),
                optionalText(object, "tag"));
    }

    private static ObjectNode object(JsonNode body, Set<String> allowed) {
        if (body == null || body.isNull() || body.isMissingNode()) return MAPPER.createObjectNode();
        if (!(body instanceof ObjectNode object)) throw TaskException.malformed("expected a JSON object");
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw TaskException.malformed("unknown field '" + abbreviate(name) + "' (allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
        return object;
    }

    private static String text(ObjectNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || !value.isTextual()) throw TaskException.malformed(field + " must be a string");
        return value.textValue();
    }

    private static String optionalText(ObjectNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) return null;
        return text(object, field);
    }

    private static List<String> tags(JsonNode value) {
        if (value == null || !value.isArray()) throw TaskException.malformed("tags must be an array of strings");
        List<String> tags = new ArrayList<>();
        for (JsonNode tag : value) {
            if (!tag.isTextual()) throw TaskException.malformed("tags must be an array of strings");
            tags.add(tag.textValue());
        }
        return tags;
    }

    private static String instant(Instant value) {
        return value == null ? null : value.toString();
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "...";
    }
}
