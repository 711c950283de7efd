package dev.baton.domain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The domains on a class path, found with {@link ServiceLoader} and put in their {@link Domain#order()}. Two domains
 * with one name, or two claiming one configuration section, are refused: one would silently hide the other.
 */
public final class Domains {
    private final List<Domain> all;

    private Domains(List<Domain> all) {
        this.all = List.copyOf(all);
    }

    /** The domains that {@code loader} finds. */
    public static Domains load(ClassLoader loader) {
        List<Domain> found = new ArrayList<>();
        ServiceLoader.load(Domain.class, loader).forEach(found::add);
        return of(found);
    }

    /** The domains on the class path Baton was loaded from. */
    public static Domains onClassPath() {
        return load(Domains.class.getClassLoader());
    }

    /** Exactly these domains, in their order. */
    public static Domains of(List<Domain> domains) {
        List<Domain> sorted = new ArrayList<>(domains);
        sorted.sort(Comparator.comparingInt(Domain::order).thenComparing(Domain::name));
        Map<String, Domain> byName = new LinkedHashMap<>();
        Map<String, Domain> bySection = new LinkedHashMap<>();
        for (Domain d : sorted) {
            Domain sameName = byName.putIfAbsent(d.name(), d);
            if (sameName != null)
                throw new IllegalStateException("two domains are named '" + d.name() + "': "
                        + sameName.getClass().getName() + " and " + d.getClass().getName());
            if (d.configSection() != null) {
                Domain sameSection = bySection.putIfAbsent(d.configSection(), d);
                if (sameSection != null)
                    throw new IllegalStateException("domains '" + sameSection.name() + "' and '" + d.name()
                            + "' both read the section '" + d.configSection() + "' of baton.yaml");
            }
        }
        return new Domains(sorted);
    }

    /** Every domain, in order. */
    public List<Domain> all() {
        return all;
    }

    /** The names, in order. */
    public List<String> names() {
        return all.stream().map(Domain::name).toList();
    }

    public Optional<Domain> find(String name) {
        return all.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /** Every domain's migration locations, in order. */
    public List<String> migrations() {
        return all.stream().flatMap(d -> d.migrations().stream()).toList();
    }

    /** Every domain's agent resources, in order. */
    public List<String> agents() {
        return all.stream().flatMap(d -> d.agents().stream()).toList();
    }

    /** Every domain's scenario suites (class path resources), in order. */
    public List<String> evalSuites() {
        return all.stream().flatMap(d -> d.evalSuites().stream()).toList();
    }

    /**
     * The default roles' permissions the domains grant: each domain's {@link Domain#userPermissions()} to every one of
     * {@code roles}, and its {@link Domain#roleGrants()} to the role each names.
     */
    public Map<String, Set<String>> grants(Collection<String> roles) {
        Map<String, Set<String>> grants = new LinkedHashMap<>();
        for (String role : roles) grants.put(role, new LinkedHashSet<>());
        for (Domain d : all) {
            for (String role : roles) grants.get(role).addAll(d.userPermissions());
            d.roleGrants()
                    .forEach((role, permissions) -> grants.computeIfAbsent(role, r -> new LinkedHashSet<>())
                            .addAll(permissions));
        }
        return grants;
    }

    /** The sections of baton.yaml the domains read. */
    public List<String> configSections() {
        return all.stream().map(Domain::configSection).filter(s -> s != null).toList();
    }
}
