package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./baton} launcher in a copy of the checkout's layout, with a stand-in for {@code mvnw} that records each
 * build and "builds" by putting the real packaged jar in place: when it builds, what it shows while building, and
 * that a second start goes straight to the jar.
 */
class LauncherIT {

    @TempDir
    Path root;

    private Path calls;

    @BeforeEach
    void checkout() throws IOException {
        Path repo = Path.of("..").toAbsolutePath().normalize();
        Files.createDirectories(root.resolve("scripts"));
        copy(repo.resolve("baton"), root.resolve("baton"));
        copy(repo.resolve("scripts/find-jdk.sh"), root.resolve("scripts/find-jdk.sh"));
        Path target = Path.of("target").toAbsolutePath();
        calls = root.resolve("mvnw.calls");
        write("mvnw", """
                #!/usr/bin/env bash
                here="$(cd "$(dirname "$0")" && pwd)"
                echo "$*" >> "$here/mvnw.calls"
                if [ -f "$here/fail-build" ]; then
                  echo "[INFO] Building baton-core 0.1.0-SNAPSHOT                                [1/2]"
                  echo "[ERROR] /x/Broken.java:[3,1] class, interface, enum, or record expected"
                  exit 1
                fi
                echo "[INFO] Building baton-core 0.1.0-SNAPSHOT                                  [1/2]"
                echo "[INFO] Building baton-server 0.1.0-SNAPSHOT                                [2/2]"
                mkdir -p "$here/baton-server/target"
                cp "%s/baton.jar" "$here/baton-server/target/baton.jar"
                ln -sfn "%s/lib" "$here/baton-server/target/lib"
                """.formatted(target, target));
        Files.setPosixFilePermissions(root.resolve("mvnw"), PosixFilePermissions.fromString("rwxr-xr-x"));
        write("pom.xml", "<project/>");
        write("baton-core/src/main/java/dev/baton/core/Core.java", "class Core {}");
    }

    record Run(int exitCode, String output) {}

    private Run baton(String... args) throws Exception {
        return baton(Map.of(), args);
    }

    private Run baton(Map<String, String> env, String... args) throws Exception {
        List<String> cmd =
                new java.util.ArrayList<>(List.of("bash", root.resolve("baton").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("BATON_JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private long builds() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls).size() : 0;
    }

    @Test
    void the_first_start_builds_the_server_only_and_shows_each_module_as_it_goes() throws Exception {
        Run run = baton("--help");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("baton: building the server with")
                .containsPattern("baton:   \\[1/2\\]\\s+baton-core\\s+\\d+ s")
                .containsPattern("baton:   \\[2/2\\]\\s+baton-server\\s+\\d+ s")
                .containsPattern("baton: built in \\d+ s")
                .contains("Usage: baton");
        assertThat(Files.readString(calls)).contains("-pl baton-server -am package");
    }

    @Test
    void a_second_start_goes_straight_to_the_jar_and_says_how_long_the_last_build_took() throws Exception {
        baton("--help");
        Run second = baton("--help");

        assertThat(second.exitCode()).isZero();
        assertThat(second.output()).doesNotContain("building").contains("Usage: baton");
        assertThat(builds()).isEqualTo(1);
    }

    @Test
    void generated_sources_the_benchmarks_and_the_examples_do_not_trigger_a_build() throws Exception {
        baton("--help");
        touchLater("baton-bench/target/generated-sources/annotations/Bench_jmhTest.java");
        touchLater("baton-bench/src/main/java/Bench.java");
        touchLater("examples/embedded/src/main/java/Example.java");
        touchLater("baton-core/target/classes/Core.class");
        touchLater("baton-core/src/test/java/CoreTest.java");

        assertThat(baton("--help").output()).doesNotContain("building");
        assertThat(builds()).isEqualTo(1);
    }

    @Test
    void an_edited_source_resource_or_pom_builds_again() throws Exception {
        baton("--help");
        touchLater("baton-core/src/main/java/dev/baton/core/Core.java");
        assertThat(baton("--help").output()).contains("building the server").contains("the last build took");

        touchLater("baton-server/src/main/resources/web/index.html");
        baton("--help");
        touchLater("pom.xml");
        baton("--help");

        assertThat(builds()).isEqualTo(4);
    }

    @Test
    void a_failed_build_shows_the_errors_exits_non_zero_and_is_tried_again_next_time() throws Exception {
        write("fail-build", "");

        Run failed = baton("--help");

        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.output())
                .contains("baton: the build failed")
                .contains("[ERROR] /x/Broken.java:[3,1] class, interface, enum, or record expected")
                .doesNotContain("Usage: baton");
        Files.delete(root.resolve("fail-build"));
        assertThat(baton("--help").output()).contains("building the server");
        assertThat(builds()).isEqualTo(2);
    }

    @Test
    void help_is_a_command() throws Exception {
        Run run = baton("help");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("Usage: baton").contains("config");
    }

    @Test
    void the_command_list_names_the_launchers_own_test_and_build() throws Exception {
        for (String asked : List.of("help", "--help", "-h")) {
            Run run = baton(asked);
            assertThat(run.exitCode()).as(run.output()).isZero();
            // after the CLI's own list, in its layout
            assertThat(run.output())
                    .containsPattern("(?m)^  serve +Start the Baton server\\.$")
                    .containsPattern("(?m)^Commands of \\./baton itself, in a source checkout:$")
                    .containsPattern("(?m)^  test +Run the whole test suite \\(unit \\+ integration\\)")
                    .containsPattern("(?m)^  build +Build the server without running the tests\\.$");
            assertThat(run.output().indexOf("  build  "))
                    .isGreaterThan(run.output().indexOf("Usage: baton"));
            // the CLI's footer names them too, and no footer line is broken mid-word
            assertThat(run.output())
                    .contains("two commands of its own: ./baton test and ./baton build.")
                    .doesNotContain("; .\n/baton");
        }
        // help for one command is the CLI's alone; a failed CLI adds nothing after its error
        Run serve = baton("help", "serve");
        assertThat(serve.exitCode()).as(serve.output()).isZero();
        assertThat(serve.output()).contains("Usage: baton serve").doesNotContain("Commands of ./baton itself");
        Run failed = baton(Map.of("BATON_JAVA_OPTS", "-XX:+NoSuchBatonOption"), "help");
        assertThat(failed.exitCode()).isNotZero();
        assertThat(failed.output()).doesNotContain("Commands of ./baton itself");
    }

    @Test
    void baton_java_opts_reach_the_jvm_each_option_as_a_word() throws Exception {
        baton("--help");

        // a JVM refuses an option it does not know before running anything: the refusal proves the option got there
        Run unknown = baton(Map.of("BATON_JAVA_OPTS", "-Xms16m -XX:+NoSuchBatonOption"), "--help");
        assertThat(unknown.exitCode()).as(unknown.output()).isNotZero();
        assertThat(unknown.output()).contains("NoSuchBatonOption").doesNotContain("Usage: baton");

        Run heap = baton(Map.of("BATON_JAVA_OPTS", "-Xms16m -Xmx64m"), "--help");
        assertThat(heap.exitCode()).as(heap.output()).isZero();
        assertThat(heap.output()).contains("Usage: baton");
    }

    private void touchLater(String file) throws IOException {
        Path path = root.resolve(file);
        if (!Files.exists(path)) write(file, "x");
        // later than the build that just ran, whatever the file system's timestamp resolution
        Files.setLastModifiedTime(path, FileTime.from(Instant.now().plusSeconds(60)));
    }

    private void write(String file, String text) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
    }
}
