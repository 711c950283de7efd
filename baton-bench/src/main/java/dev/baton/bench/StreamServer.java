package dev.baton.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.app.BatonServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A Baton server in a process of its own, for the stream scenarios ({@link StalledStreams}, {@link ManyStreams}),
 * which measure its memory from outside: SQLite in a temporary folder, its models at a simulator that runs in another
 * process. Writes its port to a file once it listens and serves until killed.
 *
 * <pre>
 * StreamServer simulatorBaseUrl portFile requestTimeoutSeconds [sseBufferBytes (0: the default) [timeToFirstToken]]
 * </pre>
 */
public final class StreamServer {
    private StreamServer() {}

    public static void main(String[] args) throws Exception {
        String simulator = args[0];
        Path portFile = Path.of(args[1]);
        Duration deadline = Duration.ofSeconds(Long.parseLong(args[2]));
        ObjectNode sections = new ObjectMapper().createObjectNode();
        if (args.length > 3 && !args[3].equals("0"))
            sections.putObject("server").put("sseBufferBytes", Integer.parseInt(args[3]));
        if (args.length > 4) sections.putObject("resilience").put("timeToFirstToken", args[4]);
        // the limits of the benchmarks, with this deadline for the whole turn and for its model call; the providers'
        // own bound of one call (60 s) must not cut the call first
        sections.putObject("models").put("requestTimeout", deadline.toString());
        TurnLimits limits =
                new TurnLimits(5, 10, Integer.MAX_VALUE, 20, 4000, 128_000, deadline, Duration.ofSeconds(10), deadline);
        Path dir = Files.createTempDirectory("baton-stream-bench");
        Path agents = Files.createDirectories(dir.resolve("agents"));
        BatonServer server = BatonServer.start(
                BenchServer.config("jdbc:sqlite:" + dir.resolve("baton.db"), sections, agents, limits),
                new BatonServer.Options("127.0.0.1", Clock.systemUTC(), Duration.ofSeconds(1), simulator));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            } catch (java.io.IOException ignored) {
                // a temporary folder left behind is harmless
            }
        }));
        Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
        Files.writeString(tmp, Integer.toString(server.port()));
        Files.move(tmp, portFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        new CountDownLatch(1).await();
    }
}
