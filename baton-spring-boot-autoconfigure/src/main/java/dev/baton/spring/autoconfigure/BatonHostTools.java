package dev.baton.spring.autoconfigure;

import dev.baton.core.tool.ToolSource;
import java.util.List;

/**
 * The tool sources the app adds to Baton's catalogue: by default one source with the {@code @BatonTool} methods of
 * every bean (see {@link dev.baton.spring.tool.BeanTools}). Declare a bean of this type to choose them yourself.
 */
public record BatonHostTools(List<ToolSource> sources) {
    public BatonHostTools {
        sources = List.copyOf(sources);
    }
}
