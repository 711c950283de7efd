package dev.baton.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.RouteHandler;
import dev.baton.domain.rest.Routes;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.tasks.domain.TaskFilter;
import dev.baton.tasks.domain.TaskService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole Baton from baton.yaml with no HTTP: the domains on the class path found through their SPI (tables, agents,
 * tools, routes), the bundled simulator answering when no provider is configured, a turn whose tool writes through the
 * same service the REST route uses, and everything stopped when the app closes.
 */
class BatonAppIT {
    @TempDir
    Path dir;

    private Principal alice() {
        return Principal.of(
                "acme",
                "alice",
                Set.of(TaskService.READ, TaskService.WRITE, "sessions:read:self", "sessions:write:self"));
    }

    private Path config(String extra) throws IOException {
        Path file = dir.resolve("baton.yaml");
        Files.writeString(file, "database: {url: \"jdbc:sqlite:" + dir.resolve("baton.db") + "\"}\n" + extra);
        return file;
    }

    @Test
    void a_turn_runs_through_the_domains_the_class_path_brings_with_no_http_listener() throws Exception {
        try (BatonApp app = BatonApp.fromConfig(config(""), Map.of())) {
            assertThat(app.simulated()).isTrue();
            assertThat(app.settings().domains().names()).containsExactly("tasks", "notes", "learning");
            assertThat(app.baton().agents().all())
                    .extracting(a -> a.id())
                    .containsExactly("tasks", "study", "learning", "learning-platform");

            Principal alice = alice();
            Session session = app.baton().sessions().start(alice, "tasks", null);
            List<TurnEvent> events = new ArrayList<>();
            SendResult result = app.baton()
                    .conversations()
                    .send(
                            alice,
                            session.id(),
                            "add a task to buy milk tomorrow",
                            SendOptions.withNewRequestId(),
                            events::add);

            assertThat(result).isInstanceOf(SendResult.Ran.class);
            assertThat(((SendResult.Ran) result).outcome().succeeded()).isTrue();
            assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOf(TurnEvent.ToolCallStarted.class));
            // the tool wrote through the same service the domain's REST routes call
            TaskService tasks = app.service(TaskService.class).orElseThrow();
            assertThat(tasks.list(alice, TaskFilter.OPEN))
                    .extracting(t -> t.title())
                    .anySatisfy(title -> assertThat(title).containsIgnoringCase("milk"));
            assertThat(paths(app.routes())).contains("GET /v1/tasks", "POST /v1/notes", "GET /v1/learning/courses");
        }
    }

    @Test
    void closing_the_app_closes_the_database_it_opened() throws Exception {
        BatonApp app = BatonApp.fromConfig(config(""), Map.of());
        assertThat(app.database().isUp(Duration.ofSeconds(5))).isTrue();

        app.close();

        assertThat(app.database().isUp(Duration.ofSeconds(5))).isFalse();
    }

    @Test
    void a_mistake_in_a_domains_section_stops_the_start_with_its_line_before_anything_opens() throws Exception {
        Path file = config("learning:\n  catalog: none\n");

        assertThatThrownBy(() -> BatonApp.fromConfig(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("baton.yaml:3")
                .hasMessageContaining("unknown key 'catalog' in learning");
        assertThat(dir.resolve("baton.db")).doesNotExist();
    }

    /** "METHOD path" of every route the groups register. */
    private static List<String> paths(List<RouteGroup> groups) {
        List<String> paths = new ArrayList<>();
        Routes recorder = new Routes() {
            @Override
            public void get(String path, RouteHandler handler) {
                paths.add("GET " + path);
            }

            @Override
            public void post(String path, RouteHandler handler) {
                paths.add("POST " + path);
            }

            @Override
            public void patch(String path, RouteHandler handler) {
                paths.add("PATCH " + path);
            }

            @Override
            public void put(String path, RouteHandler handler) {
                paths.add("PUT " + path);
            }

            @Override
            public void delete(String path, RouteHandler handler) {
                paths.add("DELETE " + path);
            }
        };
        groups.forEach(g -> g.register(recorder));
        return paths;
    }
}
