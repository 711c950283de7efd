package dev.baton.domain;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A domain plugged into Baton: its tables, agents, tools, hook modules, background jobs, REST routes and its own
 * section of baton.yaml. Implementations are found with {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/dev.baton.domain.Domain}), so a domain in its own jar joins a Baton by being on the class
 * path; nothing else lists the domains.
 *
 * <p>A domain is described first (everything but {@link #start}: read before anything is opened, so that {@code baton
 * config check} can check it), then started over the opened database.
 */
public interface Domain {

    /** A unique, short name: {@code baton mcp-server --domain NAME}, logs. */
    String name();

    /**
     * Where the domain stands among the others, lowest first: its agents are offered and its tools registered in this
     * order (a tool name taken by an earlier domain can never be shadowed). Ties are broken by {@link #name()}.
     */
    default int order() {
        return 1000;
    }

    /** The Flyway locations of its tables (e.g. {@code classpath:db/migration/tasks}); their versions must not clash. */
    default List<String> migrations() {
        return List.of();
    }

    /** The class path resources of its agents (YAML), in the order they are offered. */
    default List<String> agents() {
        return List.of();
    }

    /**
     * The class path resources of the scenario suites that check its agents end to end (YAML, run with {@code baton
     * eval --suite NAME}, NAME being the file's name without {@code .yaml}).
     */
    default List<String> evalSuites() {
        return List.of();
    }

    /** Its top-level section of baton.yaml (e.g. {@code learning}), or null when it has none. */
    default String configSection() {
        return null;
    }

    /**
     * Reads and checks its section of baton.yaml into its own typed settings, before anything is opened.
     *
     * @param section the section named by {@link #configSection()}; a missing node when absent (or when it has none)
     * @return what {@link DomainContext#settings(Class)} gives back at {@link #start}; null for none
     * @throws IllegalArgumentException (or {@link dev.baton.core.config.ConfigProblem}) naming what is wrong
     */
    default Object readSettings(JsonNode section) {
        return null;
    }

    /**
     * The ids of the hook modules it contributes (see {@link RunningDomain#modules()}), so that agents naming them
     * are accepted while the configuration is checked, before the domain is started.
     */
    default Set<String> moduleIds() {
        return Set.of();
    }

    /**
     * What a signed-in user holds in this domain over their own data: granted to the default roles ({@code user},
     * {@code student}, {@code teacher}, {@code admin}) when baton.yaml names no roles, and held by a caller named by an
     * MCP client when the domain is served on its own ({@code baton mcp-server --domain NAME}; a domain with none is
     * not served that way).
     */
    default Set<String> userPermissions() {
        return Set.of();
    }

    /** Further permissions the default roles grant, by role (e.g. {@code teacher} grades, {@code admin} administers). */
    default Map<String, Set<String>> roleGrants() {
        return Map.of();
    }

    /**
     * Starts the domain over the opened database (migrated with {@link #migrations()}): its services, tools, modules
     * and routes. Background jobs start later, with {@link RunningDomain#startBackgroundJobs()}.
     */
    RunningDomain start(DomainContext context);
}
