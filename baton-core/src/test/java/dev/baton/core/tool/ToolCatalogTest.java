package dev.baton.core.tool;

import static dev.baton.core.testing.TestTools.agent;
import static dev.baton.core.testing.TestTools.json;
import static dev.baton.core.testing.TestTools.limits;
import static dev.baton.core.testing.TestTools.objectSchema;
import static dev.baton.core.testing.TestTools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ToolCatalogTest {

    private static Tool named(String name) {
        return tool(name, objectSchema("{}"), Set.of(), null, (args, ctx) -> json("{}"));
    }

    @Test
    void an_agent_sees_only_the_tools_its_allow_list_names_in_allow_list_order() {
        ToolCatalog catalog = new ToolCatalog(List.of(
                dev.baton.core.testing.TestTools.source(named("add_task"), named("list_tasks"), named("delete_task"))));
        AgentDefinition agent = agent(List.of("list_tasks", "missing", "add_task"), limits(20, 4000, 128_000));

        assertThat(catalog.visibleTo(agent))
                .extracting(t -> t.definition().name())
                .containsExactly("list_tasks", "add_task");
        assertThat(catalog.specsFor(agent)).extracting(s -> s.name()).containsExactly("list_tasks", "add_task");
        assertThat(catalog.find(agent, "delete_task")).isEmpty();
        assertThat(catalog.find(agent, "add_task")).isPresent();
    }

    @Test
    void a_turn_offers_the_model_only_the_tools_its_caller_may_use() {
        Tool write = tool("add_task", objectSchema("{}"), Set.of("tasks:write:self"), null, (args, ctx) -> json("{}"));
        Tool read = tool("list_tasks", objectSchema("{}"), Set.of("tasks:read:self"), null, (args, ctx) -> json("{}"));
        ToolCatalog catalog = new ToolCatalog(List.of(dev.baton.core.testing.TestTools.source(read, write)));
        AgentDefinition agent = agent(List.of("list_tasks", "add_task"), limits(20, 4000, 128_000));
        Principal viewer = new Principal("v", "t", null, null, Set.of("viewer"), Set.of("tasks:read:self"), List.of());
        Principal writer = new Principal(
                "w", "t", null, null, Set.of("student"), Set.of("tasks:read:self", "tasks:write:self"), List.of());

        assertThat(catalog.specsFor(agent, viewer)).extracting(s -> s.name()).containsExactly("list_tasks");
        assertThat(catalog.specsFor(agent, writer)).extracting(s -> s.name()).containsExactly("list_tasks", "add_task");
    }

    @Test
    void tools_a_source_adds_while_running_become_visible() {
        List<Tool> offered = new CopyOnWriteArrayList<>(List.of(named("add_task")));
        ToolSource changing = new ToolSource() {
            @Override
            public String name() {
                return "mcp";
            }

            @Override
            public List<Tool> tools() {
                return List.copyOf(offered);
            }
        };
        ToolCatalog catalog = new ToolCatalog(List.of(changing));
        AgentDefinition agent = agent(List.of("add_task", "get_current_time"), limits(20, 4000, 128_000));
        assertThat(catalog.find(agent, "get_current_time")).isEmpty();

        offered.add(named("get_current_time"));

        assertThat(catalog.find(agent, "get_current_time")).isPresent();
    }

    @Test
    void a_failing_source_does_not_hide_the_others() {
        ToolSource broken = new ToolSource() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public List<Tool> tools() {
                throw new IllegalStateException("connection refused");
            }
        };
        ToolCatalog catalog =
                new ToolCatalog(List.of(broken, dev.baton.core.testing.TestTools.source(named("add_task"))));

        assertThat(catalog.visibleTo(agent(List.of("add_task"), limits(20, 4000, 128_000))))
                .hasSize(1);
    }

    /** A source with its own selector syntax, like an MCP server's {@code mcp:<server>/<tool>}. */
    private static ToolSource prefixed(String prefix, Tool... tools) {
        return new ToolSource() {
            @Override
            public String name() {
                return "ext:" + prefix;
            }

            @Override
            public List<Tool> tools() {
                return List.of(tools);
            }

            @Override
            public boolean admits(String entry, ToolDefinition tool) {
                return entry.equals("ext:" + prefix + "/*")
                        || entry.equals("ext:" + prefix + "/" + tool.name().substring(prefix.length() + 2));
            }
        };
    }

    @Test
    void a_source_selector_admits_its_tools_in_source_order_and_a_named_one_alone() {
        ToolCatalog catalog = new ToolCatalog(List.of(
                dev.baton.core.testing.TestTools.source(named("add_task")),
                prefixed("mem", named("mem__read"), named("mem__write")),
                prefixed("todo", named("todo__create"), named("todo__drop"))));
        AgentDefinition agent = agent(List.of("ext:todo/create", "add_task", "ext:mem/*"), limits(20, 4000, 128_000));

        assertThat(catalog.visibleTo(agent))
                .extracting(t -> t.definition().name())
                .containsExactly("todo__create", "add_task", "mem__read", "mem__write");
        assertThat(catalog.find(agent, "mem__write")).isPresent();
        assertThat(catalog.find(agent, "todo__drop")).isEmpty();
        assertThat(catalog.sourceOf("todo__drop")).contains("ext:todo");
        assertThat(catalog.sourceOf("add_task")).contains("test");
        assertThat(catalog.sourceOf("nobody")).isEmpty();
    }

    @Test
    void a_later_source_never_shadows_a_name_an_earlier_one_offers() {
        Tool builtIn = named("add_task");
        ToolCatalog catalog = new ToolCatalog(
                List.of(dev.baton.core.testing.TestTools.source(builtIn), prefixed("x", named("add_task"))));

        assertThat(catalog.all().get("add_task")).isSameAs(builtIn);
        assertThat(catalog.sourceOf("add_task")).contains("test");
    }
}
