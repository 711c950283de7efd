package dev.baton.tasks;

import dev.baton.core.tool.ToolSource;
import dev.baton.domain.Domain;
import dev.baton.domain.DomainContext;
import dev.baton.domain.RunningDomain;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.rest.TaskRoutes;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The task domain plugged into Baton: the tasks table, the "tasks" agent, the task tools and {@code /v1/tasks}. */
public final class TasksDomain implements Domain {

    @Override
    public String name() {
        return "tasks";
    }

    /** First: "tasks" is the agent offered first (the default when none is configured). */
    @Override
    public int order() {
        return 100;
    }

    @Override
    public List<String> migrations() {
        return List.of(TaskModule.MIGRATIONS);
    }

    @Override
    public List<String> agents() {
        return List.of(TaskModule.AGENT_RESOURCE);
    }

    @Override
    public List<String> evalSuites() {
        return List.of("evals/tasks.yaml");
    }

    @Override
    public Set<String> userPermissions() {
        return Set.of(TaskService.READ, TaskService.WRITE);
    }

    @Override
    public RunningDomain start(DomainContext context) {
        TaskModule tasks = TaskModule.create(context.database(), context.clock());
        return new RunningDomain() {
            @Override
            public List<ToolSource> toolSources() {
                return List.of(tasks.toolSource());
            }

            @Override
            public List<RouteGroup> routes() {
                return List.of(new TaskRoutes(tasks.service()));
            }

            @Override
            public <T> Optional<T> service(Class<T> type) {
                return type.isInstance(tasks.service()) ? Optional.of(type.cast(tasks.service())) : Optional.empty();
            }
        };
    }
}
