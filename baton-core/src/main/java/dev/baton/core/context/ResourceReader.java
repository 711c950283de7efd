package dev.baton.core.context;

import dev.baton.core.agent.AttachedResource;
import dev.baton.core.auth.Principal;
import java.util.List;

/**
 * Reads the resources an agent attaches to its context ({@code context.mcpResources}), as the caller: only from
 * servers the caller may use, bounded in size. Reading never fails a turn: what cannot be read is
 * {@link ResourceContent.Unreadable}. Called once per turn, so an implementation caches.
 */
@FunctionalInterface
public interface ResourceReader {
    /** Reads nothing: every resource is unreadable (no MCP servers are configured). */
    ResourceReader NONE = (caller, resources) -> resources.stream()
            .map(r ->
                    (ResourceContent) new ResourceContent.Unreadable(r.server(), r.uri(), "no MCP servers configured"))
            .toList();

    /** What each resource gave, in the order asked (a resource may give several contents). */
    List<ResourceContent> read(Principal caller, List<AttachedResource> resources);
}
