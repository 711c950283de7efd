package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.config.ConfigSection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps module ids to their {@link ModuleFactory}s and resolves each agent's modules: the org defaults (baton.yaml
 * {@code modules:}) followed by the agent's own {@code modules:} list. An agent entry with the id of an org default
 * replaces it in place (its config and overrides win); {@code enabled: false} removes it.
 *
 * <p>Modules are created once per agent configuration and shared by its turns.
 */
public final class ModuleRegistry implements ModuleSource {
    private static final Logger log = LoggerFactory.getLogger(ModuleRegistry.class);

    /** The section of baton.yaml that lists the org defaults. */
    public static final String SECTION = "modules";

    private final Map<String, ModuleFactory> factories;
    private final List<ModuleEntry> orgDefaults;
    private final Map<AgentModules, List<Module>> byAgent = new ConcurrentHashMap<>();

    /** An agent's own entries: the same entries get the same module instances. */
    private record AgentModules(String agentId, List<ModuleEntry> own) {}

    private ModuleRegistry(Collection<ModuleFactory> factories, List<ModuleEntry> orgDefaults) {
        Map<String, ModuleFactory> byId = new LinkedHashMap<>();
        for (ModuleFactory f : factories) {
            ModuleFactory previous = byId.putIfAbsent(f.id(), f);
            if (previous != null && previous != f) {
                throw new IllegalArgumentException("two module factories claim the id " + f.id() + ": "
                        + previous.getClass().getName() + " and " + f.getClass().getName());
            }
        }
        this.factories = Map.copyOf(byId);
        this.orgDefaults = List.copyOf(orgDefaults);
    }

    /**
     * A registry of the factories on the class path ({@link ServiceLoader}) plus {@code extra} ones.
     *
     * @param orgSection baton.yaml's {@code modules} section: a list of entries run for every agent, or an object
     *     whose {@code defaults} list is; missing for none
     */
    public static ModuleRegistry load(JsonNode orgSection, ClassLoader loader, List<ModuleFactory> extra) {
        List<ModuleFactory> all = new ArrayList<>(extra);
        ServiceLoader.load(ModuleFactory.class, loader).forEach(all::add);
        ModuleRegistry registry = of(all, orgSection);
        log.info(
                "modules available: {}; org defaults: {}",
                registry.ids(),
                registry.orgDefaults.stream().map(ModuleEntry::id).toList());
        return registry;
    }

    /** A registry of exactly these factories. */
    public static ModuleRegistry of(List<ModuleFactory> factories, JsonNode orgSection) {
        JsonNode list = orgSection;
        if (orgSection != null && orgSection.isObject()) {
            list = ConfigSection.of(orgSection, SECTION, "defaults").get("defaults");
        }
        return new ModuleRegistry(factories, ModuleEntry.parseList(list, SECTION));
    }

    /** The ids of every registered module. */
    public Set<String> ids() {
        return new TreeSet<>(factories.keySet());
    }

    /**
     * Resolves every agent's modules now, so a configuration naming an unknown module or with an invalid module
     * config fails at startup rather than on a user's turn.
     *
     * @throws IllegalArgumentException naming the agent and the problem
     */
    public void validate(Collection<AgentDefinition> agents) {
        for (AgentDefinition agent : agents) {
            try {
                modulesFor(HookContexts.agent(agent));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("agent " + agent.id() + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public List<Module> modulesFor(HookContext.Agent agent) {
        AgentModules key = new AgentModules(agent.id(), agent.modules());
        List<Module> cached = byAgent.get(key);
        if (cached != null) {
            return cached;
        }
        List<Module> created = create(entriesFor(agent.modules()));
        byAgent.putIfAbsent(key, created);
        return byAgent.get(key);
    }

    private List<ModuleEntry> entriesFor(List<ModuleEntry> own) {
        Map<String, ModuleEntry> merged = new LinkedHashMap<>();
        orgDefaults.forEach(e -> merged.put(e.id(), e));
        for (ModuleEntry e : own) {
            merged.put(e.id(), e); // replaces an org default in place, or appends
        }
        return merged.values().stream().filter(ModuleEntry::enabled).toList();
    }

    private List<Module> create(List<ModuleEntry> entries) {
        List<Module> modules = new ArrayList<>();
        for (ModuleEntry entry : entries) {
            ModuleFactory factory = factories.get(entry.id());
            if (factory == null) {
                throw new IllegalStateException("unknown module " + entry.id() + " (registered: " + ids() + ")");
            }
            Module module = factory.create(entry.config());
            if (module == null) {
                throw new IllegalStateException("module factory " + entry.id() + " created nothing");
            }
            modules.add(
                    entry.overridesDescriptor()
                            ? new ConfiguredModule(module, entry.apply(module.descriptor()))
                            : module);
        }
        return List.copyOf(modules);
    }

    /** A module with its descriptor overridden by configuration. */
    private record ConfiguredModule(Module module, ModuleDescriptor descriptor) implements Module {
        @Override
        public HookResult handle(HookContext context) {
            return module.handle(context);
        }

        @Override
        public OutputFilter outputFilter(HookContext context) {
            return module.outputFilter(context);
        }
    }
}
