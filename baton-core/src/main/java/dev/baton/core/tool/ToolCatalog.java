package dev.baton.core.tool;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.model.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools on offer, gathered from every {@link ToolSource}. Sources are asked on every lookup because their
 * catalogues may change while the server runs (an MCP server adds a tool); a source that wants to avoid the cost
 * caches on its own side. An agent only ever sees the tools its allow-list names.
 */
public final class ToolCatalog {
    private static final Logger log = LoggerFactory.getLogger(ToolCatalog.class);

    private final List<ToolSource> sources;

    public ToolCatalog(List<ToolSource> sources) {
        this.sources = List.copyOf(Objects.requireNonNull(sources, "sources"));
    }

    /** A catalogue with no tools at all. */
    public static ToolCatalog empty() {
        return new ToolCatalog(List.of());
    }

    /** Every tool on offer right now, by name. When two sources offer the same name the first source wins. */
    public Map<String, Tool> all() {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (ToolSource source : sources) {
            for (Tool tool : toolsOf(source)) {
                String name = tool.definition().name();
                if (byName.putIfAbsent(name, tool) != null) {
                    log.warn("tool {} from source {} is shadowed by an earlier source", name, source.name());
                }
            }
        }
        return byName;
    }

    /** The tools the agent may use, in the order of its allow-list; names nobody offers are left out. */
    public List<Tool> visibleTo(AgentDefinition agent) {
        if (agent.tools().isEmpty()) {
            return List.of();
        }
        Map<String, Tool> byName = all();
        List<Tool> visible = new ArrayList<>();
        for (String name : agent.tools()) {
            Tool tool = byName.get(name);
            if (tool != null) {
                visible.add(tool);
            }
        }
        return List.copyOf(visible);
    }

    /** The named tool, if it exists and the agent's allow-list names it. */
    public Optional<Tool> find(AgentDefinition agent, String name) {
        if (!agent.tools().contains(name)) {
            return Optional.empty();
        }
        return Optional.ofNullable(all().get(name));
    }

    /** What the model is told about the agent's tools. */
    public List<ToolSpec> specsFor(AgentDefinition agent) {
        return visibleTo(agent).stream().map(ToolCatalog::specOf).toList();
    }

    public static ToolSpec specOf(Tool tool) {
        ToolDefinition def = tool.definition();
        return new ToolSpec(def.name(), def.description(), def.parametersSchema());
    }

    private static List<Tool> toolsOf(ToolSource source) {
        try {
            List<Tool> tools = source.tools();
            return tools == null ? List.of() : tools;
        } catch (RuntimeException e) {
            // one broken source (an MCP server that went away) must not take every other tool down with it
            log.warn("tool source {} failed to list its tools: {}", source.name(), e.toString());
            return List.of();
        }
    }
}
