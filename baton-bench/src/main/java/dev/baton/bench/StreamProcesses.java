package dev.baton.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two processes of a stream scenario, started on this JVM's class path: the LLM simulator with a script, and a
 * {@link StreamServer} (with its own JVM options) pointed at it. Reads the server's resident memory from /proc and its
 * heap and SSE buffers from its {@code /metrics}.
 */
final class StreamProcesses implements AutoCloseable {
    private static final Pattern METRIC_LINE = Pattern.compile("^([a-zA-Z_:]+)(\\{[^}]*})? ([-0-9.eE+NaInf]+)$");

    private final Process simulator;
    private final Process server;
    final int port;
    private final HttpClient http = HttpClient.newHttpClient();

    private StreamProcesses(Process simulator, Process server, int port) {
        this.simulator = simulator;
        this.server = server;
        this.port = port;
    }

    /**
     * @param simulatorArgs {@link BenchSimulator}'s arguments after the port: which script
     * @param serverJvm JVM options of the server (e.g. {@code -Xmx1g})
     * @param serverArgs {@link StreamServer}'s arguments after the simulator URL and the port file
     */
    static StreamProcesses start(List<String> simulatorArgs, List<String> serverJvm, List<String> serverArgs)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("baton-stream-processes");
        int simPort = 19_000 + (int) (ProcessHandle.current().pid() % 1000);
        List<String> simArgs = new ArrayList<>(List.of(Integer.toString(simPort)));
        simArgs.addAll(simulatorArgs);
        Process sim = java(List.of("-Xmx2g"), BenchSimulator.class.getName(), simArgs)
                .redirectOutput(dir.resolve("simulator.log").toFile())
                .start();
        Path portFile = dir.resolve("server.port");
        List<String> args = new ArrayList<>(List.of("http://127.0.0.1:" + simPort + "/v1", portFile.toString()));
        args.addAll(serverArgs);
        // the server's pauses and collections, beside its log: a stream scenario runs its heap close to -Xmx
        List<String> jvm = new ArrayList<>(serverJvm);
        jvm.add("-Xlog:gc:file=" + dir.resolve("server-gc.log"));
        Process srv = java(jvm, StreamServer.class.getName(), args)
                .redirectOutput(dir.resolve("server.log").toFile())
                .start();
        long until = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!Files.exists(portFile)) {
            if (!srv.isAlive() || !sim.isAlive() || System.nanoTime() > until) {
                sim.destroyForcibly();
                srv.destroyForcibly();
                throw new IllegalStateException("the server did not start; see " + dir);
            }
            Thread.sleep(100); // polling a file another process writes
        }
        // a bench stopped with ^C must not leave its server and simulator behind
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            srv.destroy();
            sim.destroy();
        }));
        System.out.println("processes: simulator pid " + sim.pid() + ", server pid " + srv.pid() + ", logs in " + dir);
        return new StreamProcesses(
                sim, srv, Integer.parseInt(Files.readString(portFile).trim()));
    }

    private static ProcessBuilder java(List<String> jvm, String main, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-DBATON_LOG_LEVEL=WARN");
        command.addAll(jvm);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main);
        command.addAll(args);
        return new ProcessBuilder(command).redirectErrorStream(true);
    }

    /** The server's resident set in MiB (VmRSS). */
    double serverRssMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + server.pid() + "/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Double.NaN;
    }

    /** How many file descriptors the server has open now (sockets, files, pipes). */
    long serverDescriptors() {
        return descriptors(server);
    }

    /** How many file descriptors the simulator has open now: one a model call in flight, at least. */
    long simulatorDescriptors() {
        return descriptors(simulator);
    }

    private static long descriptors(Process process) {
        try (var fds = Files.list(Path.of("/proc/" + process.pid() + "/fd"))) {
            return fds.count();
        } catch (IOException | UncheckedIOException e) {
            return -1; // the process ended
        }
    }

    /** The sum of the series of one metric of the server's {@code /metrics}, optionally only those with a label. */
    double metric(String name, String labelFilter) {
        String body;
        try {
            body = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
        double sum = 0;
        for (String line : body.split("\n")) {
            Matcher m = METRIC_LINE.matcher(line);
            if (!m.matches() || !m.group(1).equals(name)) continue;
            if (labelFilter != null && (m.group(2) == null || !m.group(2).contains(labelFilter))) continue;
            sum += Double.parseDouble(m.group(3));
        }
        return sum;
    }

    /** The server's heap in use right after a full GC it is asked for (jcmd GC.run): what it really holds. */
    double serverLiveHeapMib() {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            new ProcessBuilder(jcmd, Long.toString(server.pid()), "GC.run")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return serverHeapMib();
    }

    double serverHeapMib() {
        return metric("jvm_memory_used_bytes", "area=\"heap\"") / (1024 * 1024);
    }

    @Override
    public void close() {
        server.destroy();
        simulator.destroy();
        try {
            server.waitFor();
            simulator.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
