package dev.baton.tasks;

import dev.baton.store.jdbc.Database;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.store.JdbcTaskRepository;
import dev.baton.tasks.tool.TaskToolSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;

/**
 * The built-in task domain wired up: open the {@link Database} with {@link #MIGRATIONS} among its extra
 * migration locations, then
 *
 * <pre>{@code
 * Database db = Database.open(url, List.of(TaskModule.MIGRATIONS));
 * TaskModule tasks = TaskModule.create(db, Clock.systemUTC());
 * registry.add(tasks.toolSource());          // the tools
 * tasks.service().list(principal, filter);   // the REST API
 * }</pre>
 *
 * @param service the domain, for the REST API
 * @param toolSource the task tools, for the tool catalog
 */
public record TaskModule(TaskService service, TaskToolSource toolSource) {
    /** The Flyway location of the tasks table, to pass to {@link Database#open(String, java.util.List)}. */
    public static final String MIGRATIONS = "classpath:db/migration/tasks";
    /** The classpath resource of the built-in "tasks" agent definition (YAML). */
    public static final String AGENT_RESOURCE = "agents/tasks.yaml";

    public TaskModule {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(toolSource, "toolSource");
    }

    /**
     * @param database opened with {@link #MIGRATIONS}
     * @param clock decides what "today", "this week" and "overdue" mean, and stamps created/updated times
     */
    public static TaskModule create(Database database, Clock clock) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clock, "clock");
        TaskService service = new TaskService(new JdbcTaskRepository(database), clock);
        return new TaskModule(service, new TaskToolSource(service, clock));
    }

    /** The text of the built-in "tasks" agent definition ({@value #AGENT_RESOURCE}). */
    public static String agentYaml() {
        try (InputStream in = TaskModule.class.getClassLoader().getResourceAsStream(AGENT_RESOURCE)) {
            if (in == null) throw new IllegalStateException(AGENT_RESOURCE + " is missing from the classpath");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
