package dev.baton.providers.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Jetty transport's calls against a real socket server that misbehaves as the simulator cannot: what a caller that
 * stops reading leaves in the socket, what becomes of a connection whose answer is complete before its body ends, an
 * endless error body, and closing the transport under running calls.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JettyGatewayTransportIT {
    private static final Duration GENEROUS = Duration.ofSeconds(20);
    private static final String STREAM_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n";
    /** More than any socket buffers between the two ends hold. */
    private static final long ENDLESS = 256L << 20;

    private JettyGatewayTransport transport = transport(JettyGatewayTransport.CLOSE_GRACE);
    private ScriptedHttpServer server;

    private static JettyGatewayTransport transport(Duration closeGrace) {
        return new JettyGatewayTransport(
                JettyGatewayTransportIT.class, "scripted", Duration.ofSeconds(60), Clock.systemUTC(), closeGrace);
    }

    @AfterEach
    void close() throws IOException {
        transport.close();
        if (server != null) server.close();
    }

    @Test
    void a_caller_that_stops_reading_leaves_the_answer_in_the_socket() throws Exception {
        var written = new AtomicLong();
        var writer = new AtomicReference<Thread>();
        server = ScriptedHttpServer.start(c -> {
            writer.set(Thread.currentThread());
            c.socket.setSendBufferSize(64 * 1024);
            c.write(STREAM_HEAD);
            String event = "data: " + "x".repeat(1000) + "\n\n";
            while (written.get() < ENDLESS) {
                c.chunk(event);
                written.addAndGet(event.length());
            }
            c.write("0\r\n\r\n");
        });
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);

        try (var caller = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> answer = caller.submit(() -> call("", new Cancellation(), data -> {
                if (holding.getCount() == 0) return Optional.of("read on");
                // the turn's client stopped reading: its thread is held on the first piece
                holding.countDown();
                awaitUninterruptibly(release);
                return Optional.empty();
            }));
            holding.await();

            // the provider writes until the sockets' buffers are full, then waits in a write for as long as the
            // caller holds its piece: its writes are parked and count no further from one look to the next
            var seen = new AtomicLong(-1);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> writer.get().getState() == Thread.State.WAITING
                            && seen.getAndSet(written.get()) == written.get());
            // the sockets' buffers (here a few hundred kilobytes) and one buffer of the client: nothing piled up
            assertThat(written.get())
                    .as("what the provider could write while the caller held its piece")
                    .isLessThan(8L << 20);

            release.countDown();
            assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo("read on");
        }
    }

    @Test
    void an_answer_complete_before_its_body_ends_returns_at_once_and_its_connection_serves_the_next_call()
            throws Exception {
        var endOfBody = new CountDownLatch(1);
        var first = new AtomicBoolean(true);
        server = ScriptedHttpServer.start(c -> {
            c.write(STREAM_HEAD);
            c.chunk("data: one\n\n");
            c.chunk("data: [DONE]\n\n");
            if (first.getAndSet(false)) awaitUninterruptibly(endOfBody);
            c.write("0\r\n\r\n");
        });

        // the provider holds the end of its body back: the call has its answer and returns all the same
        assertThat(call("", new Cancellation(), JettyGatewayTransportIT::untilDone))
                .isEqualTo("done");
        endOfBody.countDown();
        await("the end of the body read after the call returned")
                .atMost(GENEROUS)
                .until(() -> transport.liveExchanges() == 0);

        assertThat(call("", new Cancellation(), JettyGatewayTransportIT::untilDone))
                .isEqualTo("done");
        assertThat(server.requests()).isEqualTo(2);
        assertThat(server.connections())
                .as("the second call went over the first one's connection")
                .isEqualTo(1);
    }

    @Test
    void a_provider_that_keeps_the_body_open_after_the_answer_has_its_connection_closed() throws Exception {
        var closedByClient = new CountDownLatch(1);
        server = ScriptedHttpServer.start(c -> {
            c.write(STREAM_HEAD);
            c.chunk("data: [DONE]\n\n");
            if (c.awaitClientClose()) closedByClient.countDown();
        });

        assertThat(call("", new Cancellation(), JettyGatewayTransportIT::untilDone))
                .isEqualTo("done");

        assertThat(closedByClient.await(PulledSseExchange.LEFTOVER_GRACE.toSeconds() + 20, TimeUnit.SECONDS))
                .isTrue();
        await().atMost(GENEROUS).until(() -> transport.liveExchanges() == 0);
    }

    @Test
    void an_endless_error_body_is_read_up_to_its_bound_and_its_connection_closed() throws Exception {
        var closedByClient = new CountDownLatch(1);
        var written = new AtomicLong();
        server = ScriptedHttpServer.start(c -> {
            c.write("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n" + "Content-Length: "
                    + ENDLESS + "\r\n\r\n");
            c.write("{\"error\":{\"message\":\"overloaded ");
            byte[] filler = "x".repeat(8192).getBytes();
            try {
                while (written.get() < ENDLESS) {
                    c.out.write(filler);
                    written.addAndGet(filler.length);
                }
            } catch (IOException e) {
                closedByClient.countDown();
                throw e;
            }
        });

        var failure = catchThrowableOfType(
                ModelFailure.class, () -> call("", new Cancellation(), JettyGatewayTransportIT::untilDone));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(failure.getMessage()).contains("scripted answered 503").contains("overloaded xxx");
        assertThat(closedByClient.await(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(written.get()).isLessThan(ENDLESS);
    }

    @Test
    void closing_lets_a_running_call_finish() throws Exception {
        transport.close();
        transport = transport(Duration.ofSeconds(30));
        var finish = new CountDownLatch(1);
        server = ScriptedHttpServer.start(c -> {
            c.write(STREAM_HEAD);
            c.chunk("data: begun\n\n");
            awaitUninterruptibly(finish);
            c.chunk("data: [DONE]\n\n");
            c.write("0\r\n\r\n");
        });
        var begun = new CountDownLatch(1);

        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> running = callers.submit(() -> call("", new Cancellation(), data -> {
                begun.countDown();
                return untilDone(data);
            }));
            begun.await();
            Future<?> closing = callers.submit(transport::close);
            await().atMost(GENEROUS).until(transport::isClosing);

            finish.countDown();

            assertThat(running.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            closing.get(30, TimeUnit.SECONDS);
        }
        assertThat(server.connections()).isEqualTo(1);
    }

    @Test
    void closing_aborts_a_call_that_outlives_the_grace_and_stops_the_client_s_threads() throws Exception {
        var closedByClient = new CountDownLatch(1);
        server = ScriptedHttpServer.start(c -> {
            if (c.awaitClientClose()) closedByClient.countDown();
        });
        assertThat(clientThreads())
                .as("the selector runs while the transport is open")
                .isNotEmpty();

        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> hanging =
                    callers.submit(() -> call("", new Cancellation(), JettyGatewayTransportIT::untilDone));
            await().atMost(GENEROUS).until(() -> server.requests() == 1);

            transport.close();

            var failure = catchThrowableOfType(ExecutionException.class, () -> hanging.get(30, TimeUnit.SECONDS));
            assertThat(failure.getCause())
                    .isInstanceOfSatisfying(
                            ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(Kind.UNAVAILABLE));
        }
        assertThat(closedByClient.await(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
        await().atMost(GENEROUS).until(() -> clientThreads().isEmpty());
    }

    @Test
    void a_closed_transport_sends_nothing_more() throws Exception {
        server = ScriptedHttpServer.start(c -> c.write(STREAM_HEAD + "0\r\n\r\n"));
        transport.close();

        var failure = catchThrowableOfType(
                ModelFailure.class, () -> call("", new Cancellation(), JettyGatewayTransportIT::untilDone));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(server.connections()).isZero();
    }

    /** One call as a gateway makes it: the body is {@code request}, each event's data goes to {@code onPiece}. */
    private <R> R call(String request, Cancellation cancellation, Function<SseData, Optional<R>> onPiece) {
        var exchange = transport.newExchange();
        var modelRequest = new ModelRequest("m", List.of(), List.of(), GENEROUS, cancellation);
        GatewayCall<SseData> call = transport.open(modelRequest, exchange::abort);
        var http = transport
                .newRequest(server.uri())
                .method(HttpMethod.POST)
                .body(new StringRequestContent("application/json", request));
        return call.pull(() -> exchange.send(http), exchange, onPiece);
    }

    private static Optional<String> untilDone(SseData data) {
        if (data == SseData.END_OF_STREAM) throw new IllegalStateException("the stream ended before [DONE]");
        return data.is("[DONE]") ? Optional.of("done") : Optional.empty();
    }

    /** The platform threads of this test's transports (Jetty's selector, pool and timer). */
    private static List<String> clientThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("baton-model-scripted"))
                .toList();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
