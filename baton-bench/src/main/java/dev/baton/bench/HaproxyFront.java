package dev.baton.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy from the machine's packages in front of {@link CrashDrill}'s instances, configured as deploy/haproxy.cfg
 * (round robin, {@code /readyz} checks, a refused connection sent to the other instance) but with fast checks, so a
 * killed instance leaves the rotation within a second.
 */
final class HaproxyFront implements AutoCloseable {
    private final Process process;
    final String url;

    private HaproxyFront(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    static HaproxyFront start(Path dir, int port, List<CrashInstance> instances)
            throws IOException, InterruptedException {
        StringBuilder cfg = new StringBuilder("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 150s
                    timeout server 150s
                    timeout queue 10s
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
                """.formatted(port));
        for (CrashInstance i : instances) {
            cfg.append("    server ")
                    .append(i.instanceId)
                    .append(" 127.0.0.1:")
                    .append(i.port)
                    .append('\n');
        }
        Path file = dir.resolve("haproxy.cfg");
        Files.writeString(file, cfg);
        String haproxy = Files.isExecutable(Path.of("/usr/sbin/haproxy")) ? "/usr/sbin/haproxy" : "haproxy";
        Process p = new ProcessBuilder(haproxy, "-db", "-f", file.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("haproxy.log").toFile())
                .start();
        if (p.waitFor(1, TimeUnit.SECONDS)) {
            throw new IllegalStateException("haproxy exited " + p.exitValue() + "; see " + dir.resolve("haproxy.log"));
        }
        return new HaproxyFront(p, "http://127.0.0.1:" + port);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
