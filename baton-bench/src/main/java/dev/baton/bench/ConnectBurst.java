package dev.baton.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A burst of connections opened all at once against a real Baton server, each asking {@code GET /healthz}: how many
 * were answered, reset by the kernel (the listen backlog overflowed) or refused. With Jetty's old backlog of 50, a
 * burst like this reset some connections; Baton's {@code server.acceptQueue} (1,024 by default, capped by
 * {@code net.core.somaxconn}) takes them all.
 *
 * <pre>
 * baton-bench/run.sh burst [connections] [acceptQueue]      # default 2000 connections, Baton's default queue
 * </pre>
 */
public final class ConnectBurst {

    /** What became of each connection. */
    public record Result(
            int connections, int answered, int reset, int refused, int timedOut, int other, Duration took) {
        @Override
        public String toString() {
            return "connections=" + connections + " answered=" + answered + " reset=" + reset + " refused=" + refused
                    + " timedOut=" + timedOut + " other=" + other + " took=" + took.toMillis() + "ms";
        }
    }

    private ConnectBurst() {}

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int acceptQueue = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        try (BenchServer server = BenchServer.start(BenchScripts.turns(), acceptQueue)) {
            Result r = run(server.port(), connections);
            System.out.println("accept queue " + (acceptQueue == 0 ? "default (1024)" : acceptQueue) + ": " + r);
        }
    }

    /** Opens {@code connections} connections to 127.0.0.1:{@code port} at once (one virtual thread each). */
    public static Result run(int port, int connections) throws InterruptedException {
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger reset = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger timedOut = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>(connections);
        for (int i = 0; i < connections; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                    if (healthz(port)) answered.incrementAndGet();
                    else other.incrementAndGet();
                } catch (ConnectException e) {
                    refused.incrementAndGet();
                } catch (java.net.SocketTimeoutException e) {
                    // SYNs dropped while the accept queue was full, retried by the kernel until the timeout
                    timedOut.incrementAndGet();
                } catch (SocketException e) {
                    if (String.valueOf(e.getMessage()).toLowerCase().contains("reset")) reset.incrementAndGet();
                    else other.incrementAndGet();
                } catch (IOException | InterruptedException e) {
                    other.incrementAndGet();
                }
            }));
        }
        long started = System.nanoTime();
        go.countDown();
        for (Thread t : threads) t.join();
        return new Result(
                connections,
                answered.get(),
                reset.get(),
                refused.get(),
                timedOut.get(),
                other.get(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    private static boolean healthz(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return response.startsWith("HTTP/1.1 200");
        }
    }
}
