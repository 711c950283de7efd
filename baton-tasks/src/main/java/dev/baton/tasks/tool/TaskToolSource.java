package dev.baton.tasks.tool;

import dev.baton.core.domain.FixedToolSource;
import dev.baton.core.tool.Tool;
import dev.baton.tasks.domain.TaskService;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * The task tools, named "tasks": add_task, list_tasks, complete_task, update_task, delete_task and
 * get_current_time. Each maps its arguments onto one {@link TaskService} call made as the caller.
 */
public final class TaskToolSource extends FixedToolSource {
    /** The source's name, for logs and configuration. */
    public static final String NAME = "tasks";

    public TaskToolSource(TaskService service, Clock clock) {
        super(NAME, tools(Objects.requireNonNull(service, "service"), Objects.requireNonNull(clock, "clock")));
    }

    private static List<Tool> tools(TaskService service, Clock clock) {
        return List.of(
                new AddTaskTool(service),
                new ListTasksTool(service),
                new CompleteTaskTool(service),
                new UpdateTaskTool(service),
                new DeleteTaskTool(service),
                new CurrentTimeTool(clock));
    }
}
