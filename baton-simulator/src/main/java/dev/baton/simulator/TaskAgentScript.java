package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The bundled script for the built-in task agent: it understands a few plain phrasings and drives the task
 * tools (add_task, list_tasks, complete_task, delete_task, get_current_time) like a small, honest model would.
 * It never invents task ids: completing or deleting by name lists the tasks first and picks from the result.
 *
 * <ul>
 *   <li>"add a task to buy groceries tomorrow", "add buy milk", "remind me to call mom today"
 *   <li>"list my tasks", "what are my tasks", "show my tasks"
 *   <li>"complete buy milk", "finish the report", "mark buy milk as done"
 *   <li>"delete buy milk", "remove the report"
 *   <li>"what time is it", "what's the date"
 * </ul>
 */
public final class TaskAgentScript {

    /** The answer to anything the script does not understand. */
    public static final String HELP = """
            I can help with your tasks. Try:
            - "add a task to buy groceries tomorrow"
            - "list my tasks"
            - "complete buy groceries" or "delete buy groceries"
            - "what time is it"
            (Simulated model — set OPENAI_API_KEY to use a real one.)""";

    private static final DateTimeFormatter CLOCK_TIME =
            DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    private final Clock clock;
    /** Put before every tool name: the task tools served by another process's MCP server are "tasks__add_task". */
    private final String toolPrefix;

    private TaskAgentScript(Clock clock, String toolPrefix) {
        this.clock = clock;
        this.toolPrefix = toolPrefix;
    }

    /** The script with "today" and "tomorrow" taken from the system clock in UTC. */
    public static SimulatorScript create() {
        return create(Clock.systemUTC());
    }

    /** The script with "today" and "tomorrow" taken from {@code clock}'s date. */
    public static SimulatorScript create(Clock clock) {
        return create(clock, "");
    }

    /**
     * The script calling the task tools under {@code toolPrefix} + their name, e.g. {@code tasks__} for the task
     * tools of an MCP server named "tasks".
     */
    public static SimulatorScript create(Clock clock, String toolPrefix) {
        var agent = new TaskAgentScript(clock, toolPrefix);
        return SimulatorScript.builder()
                .responder("task-agent", request -> Optional.of(agent.respond(request)))
                .fallback(HELP)
                .build();
    }

    private Reply respond(RecordedRequest request) {
        var intent = TaskIntent.parse(request.lastUserMessage(), clock);
        var toolResult = request.lastToolResult();
        if (toolResult.isPresent()) {
            return afterTool(request, intent, toolResult.get());
        }
        return switch (intent) {
            case TaskIntent.Add add -> call(request, toolPrefix + "add_task", addArguments(add));
            case TaskIntent.AddSeveral several -> addAll(request, several);
            case TaskIntent.ListTasks list -> call(request, toolPrefix + "list_tasks", "{}");
            case TaskIntent.Complete complete -> call(request, toolPrefix + "list_tasks", "{}");
            case TaskIntent.Delete delete -> call(request, toolPrefix + "list_tasks", "{}");
            case TaskIntent.CurrentTime time -> call(request, toolPrefix + "get_current_time", "{}");
            case TaskIntent.Unknown unknown -> Reply.text(HELP);
        };
    }

    private Reply afterTool(RecordedRequest request, TaskIntent intent, ToolResultMessage result) {
        var json = parse(result.content());
        if (json.has("error")) {
            var error = json.get("error");
            var message = error.isObject() ? error.path("message").asText("something went wrong") : error.asText();
            return Reply.text("Sorry, I couldn't do that: " + message.strip().replaceAll("[.!]+$", "") + ".");
        }
        var task = json.path("task");
        var tool = result.toolName().startsWith(toolPrefix)
                ? result.toolName().substring(toolPrefix.length())
                : result.toolName();
        if (tool.equals("add_task") && intent instanceof TaskIntent.AddSeveral several) {
            return Reply.text(addedSeveral(request, several.tasks().size()));
        }
        return switch (tool) {
            case "add_task" ->
                Reply.text("Done — I've added “" + task.path("title").asText() + "” to your tasks"
                        + dueSuffix(task, ", due ") + ".");
            case "list_tasks" -> afterList(request, intent, json.path("tasks"));
            case "complete_task" -> Reply.text("Nice — “" + task.path("title").asText() + "” is marked as done.");
            case "update_task" ->
                Reply.text("I've updated “" + task.path("title").asText() + "”.");
            case "delete_task" ->
                Reply.text(titleOf(request, json.path("taskId").asText())
                        .map(title -> "I've deleted “" + title + "”.")
                        .orElse("I've deleted the task."));
            case "get_current_time" -> Reply.text(describeTime(json, intent));
            default -> Reply.text("Done.");
        };
    }

    private Reply afterList(RecordedRequest request, TaskIntent intent, JsonNode tasks) {
        String name;
        boolean completing;
        switch (intent) {
            case TaskIntent.Complete complete -> {
                name = complete.name();
                completing = true;
            }
            case TaskIntent.Delete delete -> {
                name = delete.name();
                completing = false;
            }
            default -> {
                return Reply.text(readableList(tasks));
            }
        }
        var matches = matching(tasks, name);
        if (matches.isEmpty()) {
            return Reply.text("I couldn't find a task matching “" + name + "”. Would you like me to show your task"
                    + " list, or add “" + name + "” as a new task?");
        }
        if (matches.size() > 1) {
            var text = new StringBuilder("I found " + matches.size() + " tasks matching “" + name + "”:\n");
            for (int i = 0; i < matches.size(); i++) {
                var due = dueSuffix(matches.get(i), "");
                text.append(i + 1)
                        .append(". ")
                        .append(matches.get(i).path("title").asText());
                text.append(due.isEmpty() ? "" : " (due " + due + ")").append('\n');
            }
            return Reply.text(text.append("Which one do you mean?").toString());
        }
        var id = ChatWire.JSON
                .createObjectNode()
                .put("taskId", matches.getFirst().path("id").asText());
        if (completing) {
            return call(request, toolPrefix + "complete_task", id.toString());
        }
        return call(
                request,
                toolPrefix + "delete_task",
                id.put("confirmation", true).toString());
    }

    /** Tasks whose title contains {@code name}; an exact title match wins over partial ones. */
    private static List<JsonNode> matching(JsonNode tasks, String name) {
        var needle = name.toLowerCase(Locale.ROOT);
        var partial = new ArrayList<JsonNode>();
        var exact = new ArrayList<JsonNode>();
        for (var task : tasks) {
            var title = task.path("title").asText().toLowerCase(Locale.ROOT);
            if (title.equals(needle)) {
                exact.add(task);
            }
            if (title.contains(needle)) {
                partial.add(task);
            }
        }
        return exact.size() == 1 ? exact : partial;
    }

    private static String readableList(JsonNode tasks) {
        if (tasks.isEmpty()) {
            return "You have no open tasks.";
        }
        var text = new StringBuilder("You have " + tasks.size() + " open task" + (tasks.size() == 1 ? "" : "s") + ":");
        int number = 1;
        for (var task : tasks) {
            text.append('\n')
                    .append(number++)
                    .append(". ")
                    .append(task.path("title").asText());
            var due = dueSuffix(task, "");
            text.append(due.isEmpty() ? "" : " (due " + due + ")");
        }
        return text.toString();
    }

    /** {@code prefix} + the due date of a task (the date part of its {@code dueAt}), or "" without one. */
    private static String dueSuffix(JsonNode task, String prefix) {
        var dueAt = task.path("dueAt");
        if (!dueAt.isTextual() || dueAt.asText().isBlank()) {
            return "";
        }
        var text = dueAt.asText();
        return prefix + (text.length() >= 10 ? text.substring(0, 10) : text);
    }

    private static String describeTime(JsonNode json, TaskIntent intent) {
        var day = json.path("dayOfWeek").asText("");
        var dayName = day.isEmpty() ? "" : day.charAt(0) + day.substring(1).toLowerCase(Locale.ROOT) + ", ";
        var date = json.path("date").asText("");
        if (intent instanceof TaskIntent.CurrentTime time && time.dateAsked()) {
            return "Today is " + dayName + date + ".";
        }
        try {
            var now = Instant.parse(json.path("now").asText());
            return "It's " + CLOCK_TIME.format(now) + " UTC on " + dayName + date + ".";
        } catch (RuntimeException e) {
            return "It's " + json.path("now").asText("an unknown time") + ".";
        }
    }

    /** The title of a task id as an earlier list_tasks result of this request showed it. */
    private static Optional<String> titleOf(RecordedRequest request, String taskId) {
        for (var result : request.toolResults()) {
            for (var task : parse(result.content()).path("tasks")) {
                if (taskId.equals(task.path("id").asText())) {
                    return Optional.of(task.path("title").asText());
                }
            }
        }
        return Optional.empty();
    }

    /** One add_task call per task, in one reply. */
    private Reply addAll(RecordedRequest request, TaskIntent.AddSeveral several) {
        var tool = toolPrefix + "add_task";
        if (!request.toolNames().contains(tool)) return call(request, tool, "{}");
        return Reply.toolCalls(several.tasks().stream()
                .map(add -> new Reply.ToolCall(tool, addArguments(add)))
                .toArray(Reply.ToolCall[]::new));
    }

    /** What adding several tasks came to: the titles the tool confirmed, and the failures in plain words. */
    private static String addedSeveral(RecordedRequest request, int count) {
        var results = request.toolResults();
        var added = new ArrayList<String>();
        var failed = new ArrayList<String>();
        for (var result : results.subList(Math.max(0, results.size() - count), results.size())) {
            var json = parse(result.content());
            if (json.has("error")) {
                var error = json.get("error");
                failed.add(error.isObject() ? error.path("message").asText("something went wrong") : error.asText());
            } else {
                added.add("“" + json.path("task").path("title").asText() + "”");
            }
        }
        var text = new StringBuilder();
        if (!added.isEmpty()) {
            text.append("I've added ")
                    .append(added.size() == 2 ? "two tasks" : added.size() + " tasks")
                    .append(" to your list: ")
                    .append(String.join(" and ", added))
                    .append('.');
        }
        for (var message : failed) {
            text.append(text.isEmpty() ? "" : " ")
                    .append("One could not be added: ")
                    .append(message.strip().replaceAll("[.!]+$", ""))
                    .append('.');
        }
        return text.toString();
    }

    /** A tool call, or an honest refusal when the agent was not given that tool. */
    private static Reply call(RecordedRequest request, String tool, String argumentsJson) {
        if (!request.toolNames().contains(tool)) {
            return Reply.text("I would use the " + tool + " tool for that, but this agent does not offer it.");
        }
        return Reply.toolCall(tool, argumentsJson);
    }

    private static String addArguments(TaskIntent.Add add) {
        var arguments = ChatWire.JSON.createObjectNode().put("title", add.title());
        if (add.dueDate() != null) {
            arguments.put("dueDate", add.dueDate());
        }
        if (add.priority() != null) {
            arguments.put("priority", add.priority());
        }
        return arguments.toString();
    }

    private static JsonNode parse(String content) {
        try {
            var node = ChatWire.JSON.readTree(content);
            return node == null ? MissingNode.getInstance() : node;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }
}
