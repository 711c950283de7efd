package dev.baton.runtime.tool;

import dev.baton.core.domain.FixedToolSource;
import java.util.List;

/** The {@link AnnotatedTools} implementation: tools fixed when built, as the built-in domains' are. */
final class AnnotatedToolSource extends FixedToolSource implements AnnotatedTools {
    private final List<AnnotatedTool> annotatedTools;

    AnnotatedToolSource(String name, List<AnnotatedTool> tools) {
        super(name, List.copyOf(tools));
        this.annotatedTools = List.copyOf(tools);
    }

    @Override
    public List<AnnotatedTool> annotatedTools() {
        return annotatedTools;
    }
}
