package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No database connection is held while a turn waits on its model: with more turns held mid-answer by the simulator
 * than the pool has connections, the pool's lent-out count (the {@code baton_database_connections_active} gauge) is
 * zero, and every turn still completes once the model goes on. A turn that kept its connection across the model call
 * would keep the gauge at the pool's size, and the ninth turn would wait for a connection.
 */
class ConnectionHoldingIT {
    /** More than either pool's size (SQLite 4, PostgreSQL 10 by default). */
    private static final int TURNS = 12;

    private static final Pattern ACTIVE =
            Pattern.compile("(?m)^baton_database_connections_active(?:\\{[^}]*})? ([0-9.eE+-]+)$");

    @TempDir
    Path dir;

    @Test
    void turns_waiting_on_the_model_hold_no_connection_on_sqlite() {
        heldTurnsHoldNoConnection(TestServer.sqliteUrl(dir));
    }

    @Test
    void turns_waiting_on_the_model_hold_no_connection_on_postgresql() {
        try (Postgres pg = Postgres.freshSchema()) {
            heldTurnsHoldNoConnection(pg.url());
        }
    }

    private void heldTurnsHoldNoConnection(String databaseUrl) {
        SimulatorScript script = SimulatorScript.builder()
                .always(Reply.text("Noted, and here is a longer answer in several words."))
                .build();
        CountDownLatch release = new CountDownLatch(1);
        try (LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(databaseUrl, TurnLimits.DEFAULTS, sim, false)) {
            String token = TestServer.token("waiting");
            for (int i = 0; i < TURNS; i++) sim.enqueueFault(new Fault.HoldAfter(1, release));
            List<ApiClient.SseStream> streams = new ArrayList<>();
            try {
                for (int i = 0; i < TURNS; i++) {
                    String session = t.api.startSession(token, "tasks");
                    ApiClient.SseStream stream = t.api.stream(session, token, "remember the milk " + i);
                    streams.add(stream);
                    // the model has started answering and now says nothing until released
                    assertThat(stream.until(e -> e.event().equals("chunk"))
                                    .getLast()
                                    .event())
                            .isEqualTo("chunk");
                }
                assertThat(sim.requestCount()).isEqualTo(TURNS);

                // every turn is open and waiting on the model: background work may borrow a connection for a moment,
                // but none stays lent out to a waiting turn
                await().atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> activeConnections(t) == 0);
                assertThat(release.getCount()).isEqualTo(1);

                release.countDown();
                for (ApiClient.SseStream stream : streams) {
                    assertThat(stream.all().getLast().event()).isEqualTo("done");
                }
            } finally {
                release.countDown();
                streams.forEach(ApiClient.SseStream::close);
            }
        }
    }

    private static double activeConnections(TestServer t) {
        ApiClient.Response scrape = t.api.get("/metrics", null);
        assertThat(scrape.status()).isEqualTo(200);
        Matcher m = ACTIVE.matcher(scrape.raw());
        assertThat(m.find()).as("the gauge is published").isTrue();
        return Double.parseDouble(m.group(1));
    }
}
