package dev.baton.testkit.process;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * HAProxy from the machine's packages in front of server processes, as deploy/haproxy.cfg puts it in front of a
 * deployment: round robin, each instance taken out while its {@code /readyz} fails, a connection refused by a dead
 * instance sent to another (the request had not been sent: nothing runs twice), and timeouts long enough for a quiet
 * SSE stream. Checks every half second and takes an instance out at its first failed check, so a killed instance
 * leaves the rotation within a second. Runs in the foreground ({@code -db}) from a config generated in a folder of its
 * own. The tests that put several server processes behind a balancer and the crash drill of baton-bench use it.
 */
public final class Haproxy implements AutoCloseable {
    private final Process process;
    private final int port;
    private final int statsPort;
    private final List<String> output = new ArrayList<>();

    private Haproxy(Process process, int port, int statsPort) {
        this.process = process;
        this.port = port;
        this.statsPort = statsPort;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (output) {
                        output.add(line);
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    /** The {@code haproxy} program: on the PATH, or where Debian installs it ({@code /usr/sbin}, often off PATH). */
    public static Optional<Path> binary() {
        Stream<String> dirs = Stream.concat(
                Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)),
                Stream.of("/usr/sbin", "/usr/local/sbin"));
        return dirs.filter(d -> !d.isBlank())
                .map(d -> Path.of(d, "haproxy"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Skips the calling test when HAProxy is not installed. */
    public static Path require() {
        Optional<Path> haproxy = binary();
        Assumptions.assumeTrue(
                haproxy.isPresent(),
                "haproxy is not installed (not on PATH nor in /usr/sbin): apt-get install haproxy");
        return haproxy.get();
    }

    /**
     * Starts HAProxy on a free port in front of {@code servers} (base URLs such as {@code http://127.0.0.1:1234}) and
     * waits until it reports every one of them up.
     */
    public static Haproxy start(Path dir, List<String> servers) throws Exception {
        return start(require(), dir, servers);
    }

    /** As {@link #start(Path, List)}, with the {@code haproxy} program to run (see {@link #binary()}). */
    public static Haproxy start(Path haproxy, Path dir, List<String> servers) throws Exception {
        Files.createDirectories(dir);
        int port = freePort();
        int statsPort = freePort();
        StringBuilder backends = new StringBuilder();
        for (int i = 0; i < servers.size(); i++) {
            URI uri = URI.create(servers.get(i));
            backends.append("    server baton-%d %s:%d\n".formatted(i + 1, uri.getHost(), uri.getPort()));
        }
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, """
                global
                    log stdout format raw local0 info

                defaults
                    mode http
                    log global
                    timeout connect 2s
                    # an SSE stream may stay quiet between events; Baton's heartbeats come after a quiet second
                    timeout client 120s
                    timeout server 120s
                    timeout tunnel 120s
                    timeout http-request 10s
                    timeout queue 10s
                    # a connection refused by an instance that died since its last check goes to another one
                    retries 2
                    option redispatch 1

                frontend baton
                    bind 127.0.0.1:%d
                    default_backend baton

                backend baton
                    balance roundrobin
                    option httpchk
                    http-check send meth GET uri /readyz
                    http-check expect status 200
                    default-server check inter 500ms fall 1 rise 1
                %s
                listen stats
                    bind 127.0.0.1:%d
                    stats enable
                    stats uri /stats
                """.formatted(port, backends, statsPort));
        Process process = new ProcessBuilder(haproxy.toString(), "-db", "-f", cfg.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        Haproxy started = new Haproxy(process, port, statsPort);
        try {
            started.awaitUp(servers.size());
        } catch (RuntimeException | Error e) {
            started.close();
            throw new AssertionError("haproxy did not come up with its servers: " + started.output(), e);
        }
        return started;
    }

    /** The load balancer's base URL. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Waits until HAProxy's health checks report {@code n} servers of the backend up. */
    public void awaitUp(int n) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> serversUp() == n);
    }

    /** How many servers of the backend HAProxy's checks say are up (its stats page, CSV). */
    public long serversUp() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String csv = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statsPort + "/stats;csv"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return csv.lines()
                .map(l -> l.split(","))
                .filter(f -> f.length > 17 && f[0].equals("baton") && f[1].startsWith("baton-"))
                .filter(f -> f[17].startsWith("UP"))
                .count();
    }

    private String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        }
        if (process.isAlive()) throw new IllegalStateException("haproxy did not stop");
    }
}
