package dev.baton.eval;

import dev.baton.domain.Domains;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds a suite by what the user gave: a YAML file; else, by name, {@code ./evals/NAME.yaml}; else a suite the domains
 * on the class path ship with their agents ({@link dev.baton.domain.Domain#evalSuites()}), so that {@code baton eval
 * --suite learning} works from any folder.
 */
public final class ShippedSuites {
    private final Map<String, String> byName;
    private final ClassLoader loader;

    private ShippedSuites(Map<String, String> byName, ClassLoader loader) {
        this.byName = Map.copyOf(byName);
        this.loader = loader;
    }

    /** The suites of the domains on the class path. */
    public static ShippedSuites onClassPath() {
        Map<String, String> byName = new LinkedHashMap<>();
        for (String resource : Domains.onClassPath().evalSuites()) byName.putIfAbsent(nameOf(resource), resource);
        return new ShippedSuites(byName, ShippedSuites.class.getClassLoader());
    }

    /** The names of the shipped suites. */
    public Set<String> names() {
        return new TreeSet<>(byName.keySet());
    }

    /**
     * The suite {@code given} names.
     *
     * @throws ConfigException when there is no such file or suite, or the suite is not valid
     */
    public EvalSuite find(String given) {
        Path file = Path.of(given);
        if (Files.isRegularFile(file)) return SuiteReader.read(file);
        boolean aName = !given.contains("/") && !given.contains("\\") && !given.endsWith(".yaml");
        if (aName) {
            Path local = Path.of("evals", given + ".yaml");
            if (Files.isRegularFile(local)) return SuiteReader.read(local);
            String resource = byName.get(given);
            if (resource != null) return SuiteReader.read(read(resource));
        }
        throw new ConfigException("suite not found: " + given + " (give a YAML file, or the name of one in ./evals or "
                + "shipped with Baton: " + String.join(", ", names()) + ")");
    }

    private ConfigFile read(String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null)
                throw new ConfigException("the shipped suite " + resource + " is missing from the class path");
            return ConfigFile.read(in, resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String nameOf(String resource) {
        String file = resource.substring(resource.lastIndexOf('/') + 1);
        return file.endsWith(".yaml") ? file.substring(0, file.length() - ".yaml".length()) : file;
    }
}
