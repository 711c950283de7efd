package dev.baton.domain;

import dev.baton.core.hook.ModuleFactory;
import dev.baton.core.tool.ToolSource;
import dev.baton.domain.rest.RouteGroup;
import java.util.List;
import java.util.Optional;

/** A started {@link Domain}: what it adds to the Baton it runs in. Closing it stops what it started. */
public interface RunningDomain extends AutoCloseable {

    /** Its tools, in the order they join the catalogue. */
    List<ToolSource> toolSources();

    /** The hook modules it provides, one factory per id of {@link Domain#moduleIds()}. */
    default List<ModuleFactory> modules() {
        return List.of();
    }

    /** Its REST API: the same services its tools call, served by whichever front door runs (baton-server). */
    default List<RouteGroup> routes() {
        return List.of();
    }

    /**
     * One of its services by type, for a front door that translates another wire onto it (a design's own API);
     * empty when it has none of that type.
     */
    default <T> Optional<T> service(Class<T> type) {
        return Optional.empty();
    }

    /** Starts its background jobs (workers, purges); the returned handle stops them. */
    default AutoCloseable startBackgroundJobs() {
        return () -> {};
    }

    @Override
    default void close() {}
}
