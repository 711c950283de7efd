package dev.baton.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A domain of someone else's plugs in by being on the class path: the bookmarks domain (src/test/plugin, outside the
 * test sources Maven compiles) is compiled here against Baton's jars and packed into a jar of its own with its
 * ServiceLoader entry, migration and agent. A JVM started with that jar gets its table, agent, tool, route, settings
 * section and role permissions; the same JVM without it has no such agent.
 */
class ThirdPartyDomainIT {
    private static final Path PLUGIN_SOURCES = Path.of("src/test/plugin");

    @TempDir
    static Path work;

    static Path jar;

    @BeforeAll
    static void buildThePluginJar() throws Exception {
        Path classes = Files.createDirectories(work.resolve("plugin-classes"));
        List<String> sources;
        try (Stream<Path> files = Files.walk(PLUGIN_SOURCES)) {
            sources = files.filter(f -> f.toString().endsWith(".java"))
                    .map(Path::toString)
                    .toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of(
                "--release", "21", "-parameters", "-proc:none", "-classpath", classPath(), "-d", classes.toString()));
        args.addAll(sources);
        assertThat(javac.run(null, null, null, args.toArray(String[]::new)))
                .as("the plugin compiles against Baton's jars")
                .isZero();
        jar = work.resolve("bookmarks-domain.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            Set<String> added = new HashSet<>();
            add(out, classes, added);
            // the ServiceLoader entry, the migrations and the agent (the sources are left out)
            add(out, PLUGIN_SOURCES, added);
        }
    }

    @Test
    void a_domain_in_its_own_jar_joins_the_assembly_by_being_on_the_class_path() throws Exception {
        Path dir = project("bookmarks:\n  maxPerUser: 3\n");

        Run run = host(dir, classPath() + java.io.File.pathSeparator + jar);

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output)
                .contains("domains=[tasks, notes, learning, bookmarks]")
                .contains("bookmarks:write:self")
                .contains("answer=Saved.")
                .contains("route={\"bookmarks\":[\"https://baton.dev\"]}");
    }

    @Test
    void without_the_jar_its_section_and_its_agent_are_unknown() throws Exception {
        Run withSection = host(project("bookmarks:\n  maxPerUser: 3\n"), classPath());
        assertThat(withSection.exitCode).as(withSection.output).isEqualTo(3);
        assertThat(withSection.output).contains("failed=").contains("unknown key 'bookmarks'");

        Run plain = host(project(""), classPath());
        assertThat(plain.exitCode).as(plain.output).isEqualTo(3);
        assertThat(plain.output).contains("domains=[tasks, notes, learning]").contains("failed=agent not found");
    }

    private static Path project(String extra) throws IOException {
        Path dir = Files.createTempDirectory(work, "project");
        Files.writeString(
                dir.resolve("baton.yaml"),
                "database: {url: \"jdbc:sqlite:" + dir.resolve("baton.db") + "\"}\n" + extra);
        return dir;
    }

    private record Run(int exitCode, String output) {}

    private static Run host(Path dir, String classPath) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder pb = new ProcessBuilder(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        classPath,
                        PluginHost.class.getName(),
                        dir.toString())
                .redirectErrorStream(true);
        // no provider key may leak in from the machine: the simulator answers
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.endsWith("_API_KEY") || k.endsWith("_BASE_URL") || k.startsWith("BATON_"));
        Process process = pb.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return new Run(process.exitValue(), output);
    }

    /** The test's class path as the build gave it (surefire and failsafe may run from a manifest-only jar). */
    private static String classPath() {
        String fromBuild = System.getProperty("surefire.test.class.path");
        return fromBuild != null && !fromBuild.isBlank() ? fromBuild : System.getProperty("java.class.path");
    }

    private static void add(JarOutputStream out, Path root, Set<String> added) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> !f.equals(root))
                    .filter(f -> !f.toString().endsWith(".java"))
                    .toList()) {
                String name = root.relativize(f).toString().replace('\\', '/') + (Files.isDirectory(f) ? "/" : "");
                // directory entries too (Flyway finds a jar's migrations by listing their folder), each once
                if (!added.add(name)) continue;
                out.putNextEntry(new JarEntry(name));
                if (Files.isRegularFile(f)) Files.copy(f, out);
                out.closeEntry();
            }
        }
    }
}
