package dev.baton.providers.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The JDK client every gateway's calls share: where its work runs, and that closing the transport stops it. */
class GatewayTransportIT {
    private final LlmSimulator simulator = LlmSimulator.start(SimulatorScript.replyingWith("one two three four"));
    private final GatewayTransport transport =
            new GatewayTransport(GatewayTransportIT.class, "simulator", Duration.ofSeconds(30), Clock.systemUTC());

    @AfterEach
    void close() {
        transport.close();
        simulator.close();
    }

    @Test
    void a_streamed_answer_is_read_into_its_subscriber_on_virtual_threads() throws Exception {
        var lines = new LineThreads();

        var response = transport.client().send(streamingRequest(), HttpResponse.BodyHandlers.fromLineSubscriber(lines));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(lines.texts).as("the stream's lines").anyMatch(line -> line.contains("[DONE]"));
        assertThat(lines.threads)
                .as("every line was handed over on a virtual thread, not a pooled platform thread")
                .isNotEmpty()
                .allSatisfy(thread ->
                        assertThat(thread.isVirtual()).as(thread.getName()).isTrue());
    }

    @Test
    void a_closed_transport_sends_nothing_more() {
        transport.close();

        assertThatThrownBy(() -> transport.client().send(streamingRequest(), HttpResponse.BodyHandlers.discarding()))
                .isInstanceOf(IOException.class);
        assertThat(simulator.requestCount()).isZero();
    }

    private HttpRequest streamingRequest() {
        String body = "{\"model\":\"default\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        return HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /** Records each line of a body and the thread it arrived on. */
    private static final class LineThreads implements Flow.Subscriber<String> {
        final List<String> texts = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            texts.add(line);
            threads.add(Thread.currentThread());
        }

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onComplete() {}
    }
}
