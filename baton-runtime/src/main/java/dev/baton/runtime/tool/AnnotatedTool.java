package dev.baton.runtime.tool;

import dev.baton.core.tool.Tool;

/** A tool made from a {@link BatonTool} method; what it adds to {@link Tool} is what the annotation says beyond it. */
public interface AnnotatedTool extends Tool {

    /** {@link BatonTool#destructive()}, also the definition's {@code needsConfirmation}. */
    boolean destructive();
}
