package dev.baton.core.tool;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.model.ToolSpec;
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
        offered().forEach((name, offer) -> byName.put(name, offer.tool()));
        return byName;
    }

    /** The name of the source that offers the named tool right now ("tasks", "mcp:memory"), if any does. */
    public Optional<String> sourceOf(String toolName) {
        return Optional.ofNullable(offered().get(toolName))
                .map(offer -> offer.source().name());
    }

    /**
     * The tools the agent may use, in the order of its allow-list; names nobody offers are left out. An entry is a
     * tool's name or a selector its source understands (see {@link ToolSource#admits}), which may admit several
     * tools, in their source's order.
     */
    public List<Tool> visibleTo(AgentDefinition agent) {
        if (agent.tools().isEmpty()) {
            return List.of();
        }
        Map<String, Offer> offered = offered();
        Map<String, Tool> visible = new LinkedHashMap<>();
        for (String entry : agent.tools()) {
            Offer named = offered.get(entry);
            if (named != null) {
                visible.putIfAbsent(entry, named.tool());
                continue;
            }
            offered.forEach((name, offer) -> {
                if (offer.admittedBy(entry)) visible.putIfAbsent(name, offer.tool());
            });
        }
        return List.copyOf(visible.values());
    }

    /** The named tool, if it exists and the agent's allow-list admits it. */
    public Optional<Tool> find(AgentDefinition agent, String name) {
        Offer offer = offered().get(name);
        if (offer == null) {
            return Optional.empty();
        }
        boolean admitted =
                agent.tools().contains(name) || agent.tools().stream().anyMatch(offer::admittedBy);
        return admitted ? Optional.of(offer.tool()) : Optional.empty();
    }

    /** What the model is told about the agent's tools. */
    public List<ToolSpec> specsFor(AgentDefinition agent) {
        return visibleTo(agent).stream().map(ToolCatalog::specOf).toList();
    }

    /**
     * What the model is told about the agent's tools in a turn of {@code caller}'s: only those the caller may use (its
     * permissions, and its roles for a tool of shared data). A call to another would be refused anyway; offering it
     * would tell the model, and through it the user, what exists beyond their reach.
     */
    public List<ToolSpec> specsFor(AgentDefinition agent, Principal caller) {
        return visibleTo(agent).stream()
                .filter(tool -> tool.definition().usableBy(caller))
                .map(ToolCatalog::specOf)
                .toList();
    }

    public static ToolSpec specOf(Tool tool) {
        ToolDefinition def = tool.definition();
        return new ToolSpec(def.name(), def.description(), def.parametersSchema());
    }

    /** Every tool on offer with its source, by name; the first source to offer a name keeps it. */
    private Map<String, Offer> offered() {
        Map<String, Offer> byName = new LinkedHashMap<>();
        for (ToolSource source : sources) {
            for (Tool tool : toolsOf(source)) {
                String name = tool.definition().name();
                if (byName.putIfAbsent(name, new Offer(source, tool)) != null) {
                    log.warn("tool {} from source {} is shadowed by an earlier source", name, source.name());
                }
            }
        }
        return byName;
    }

    private record Offer(ToolSource source, Tool tool) {
        boolean admittedBy(String allowListEntry) {
            try {
                return source.admits(allowListEntry, tool.definition());
            } catch (RuntimeException e) {
                log.warn("tool source {} failed to match {}: {}", source.name(), allowListEntry, e.toString());
                return false;
            }
        }
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
