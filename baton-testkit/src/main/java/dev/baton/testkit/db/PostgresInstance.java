package dev.baton.testkit.db;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL server of a test's own — its own data directory and port, made with {@code initdb} and run with
 * {@code pg_ctl} — that the test may stop and start again, to see what Baton does while its database is away.
 * The shared server at 127.0.0.1:5432 is never touched.
 *
 * <p>The binaries are looked up with {@code pg_config --bindir} (or {@code BATON_TEST_PG_BINDIR}). PostgreSQL refuses
 * to run as root: when the test runs as root, the data directory is given to the {@code postgres} user and the
 * commands run through {@code runuser}. Without the binaries the test is skipped — unless {@code CI=true}, where it
 * fails.
 *
 * <pre>{@code
 * try (PostgresInstance pg = PostgresInstance.start()) {
 *     Database.open(pg.url()); ... pg.stop(); ... pg.restart(); ...
 * }
 * }</pre>
 */
public final class PostgresInstance implements AutoCloseable {
    private static final String OWNER = "postgres";

    private final Path binDir;
    private final Path dataDir;
    private final int port;
    private final boolean asRoot;

    private PostgresInstance(Path binDir, Path dataDir, int port, boolean asRoot) {
        this.binDir = binDir;
        this.dataDir = dataDir;
        this.port = port;
        this.asRoot = asRoot;
    }

    /** Creates a cluster in a new temporary folder and starts it on a free port. */
    public static PostgresInstance start() {
        Path bin = binDir();
        boolean root = "root".equals(System.getProperty("user.name"));
        try {
            Path dir = Files.createTempDirectory("baton-pg-");
            Path data = dir.resolve("data");
            PostgresInstance pg = new PostgresInstance(bin, data, freePort(), root);
            if (root) run(List.of("chown", "-R", OWNER + ":" + OWNER, dir.toString()), 30);
            pg.pg("initdb", "-D", data.toString(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync");
            // only this instance's socket folder and port, listening on loopback
            Files.writeString(
                    data.resolve("postgresql.conf"),
                    "\nlisten_addresses = '127.0.0.1'\nport = " + pg.port + "\nunix_socket_directories = '" + dir
                            + "'\nfsync = off\nshared_buffers = 16MB\nmax_connections = 40\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
            pg.startServer();
            return pg;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/postgres?user=postgres}. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    public int port() {
        return port;
    }

    /** Stops the server the hard way ({@code -m immediate}: open connections are cut, as in a crash). */
    public void stop() {
        pg("pg_ctl", "-D", dataDir.toString(), "-m", "immediate", "-w", "-t", "60", "stop");
    }

    /** Starts the stopped server again on the same port and data. */
    public void restart() {
        startServer();
    }

    private void startServer() {
        pg(
                "pg_ctl",
                "-D",
                dataDir.toString(),
                "-l",
                dataDir.resolveSibling("server.log").toString(),
                "-w",
                "-t",
                "60",
                "start");
    }

    @Override
    public void close() {
        try {
            pg("pg_ctl", "-D", dataDir.toString(), "-m", "immediate", "-w", "-t", "60", "stop");
        } catch (RuntimeException ignored) {
            // already stopped
        }
        try (Stream<Path> files = Files.walk(dataDir.getParent())) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp folder left behind is harmless
        }
    }

    private void pg(String program, String... args) {
        List<String> command = new ArrayList<>();
        if (asRoot) command.addAll(List.of("runuser", "-u", OWNER, "--"));
        command.add(binDir.resolve(program).toString());
        command.addAll(List.of(args));
        run(command, 120);
    }

    private static void run(List<String> command, int timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (" + p.exitValue() + "): "
                        + new String(output, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path binDir() {
        String configured = System.getenv("BATON_TEST_PG_BINDIR");
        Path bin = null;
        if (configured != null && !configured.isBlank()) {
            bin = Path.of(configured);
        } else {
            try {
                Process p = new ProcessBuilder("pg_config", "--bindir").start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty()) bin = Path.of(out);
            } catch (IOException e) {
                bin = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (bin == null || !Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("pg_ctl"))) {
            String message =
                    "PostgreSQL's initdb and pg_ctl were not found (pg_config --bindir or BATON_TEST_PG_BINDIR)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(message + "; CI=true requires them");
            Assumptions.abort(message + "; skipping (set CI=true to make this a failure)");
        }
        return bin;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
