package dev.baton.core.hook;

import java.util.List;

/**
 * The modules configured for an agent (known by its id and its own module entries), in any order: the pipeline sorts
 * them by priority.
 */
@FunctionalInterface
public interface ModuleSource {

    /** No modules for any agent. */
    ModuleSource NONE = agent -> List.of();

    /**
     * @throws IllegalStateException when the agent names a module nobody registered
     */
    List<Module> modulesFor(HookContext.Agent agent);

    /** The same modules for every agent (tests, embedding). */
    static ModuleSource of(List<Module> modules) {
        List<Module> copy = List.copyOf(modules);
        return agent -> copy;
    }
}
