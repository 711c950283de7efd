package dev.baton.core.domain;

import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolSource;
import java.util.List;
import java.util.Objects;

/** A tool source whose tools are fixed when it is built, as the built-in domains' are. */
public abstract class FixedToolSource implements ToolSource {
    private final String name;
    private final List<Tool> tools;

    protected FixedToolSource(String name, List<Tool> tools) {
        this.name = Objects.requireNonNull(name, "name");
        this.tools = List.copyOf(tools);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<Tool> tools() {
        return tools;
    }
}
