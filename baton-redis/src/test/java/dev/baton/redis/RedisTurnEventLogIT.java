package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventLogSettings;
import dev.baton.testkit.db.RedisTestServer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Turn events in the Redis at 127.0.0.1:6379 (Redis Streams), under a fresh key prefix per test. */
class RedisTurnEventLogIT {
    private static final TurnEventLog.TurnOwner OWNER = new TurnEventLog.TurnOwner("t1", "ann", "s1");

    private SharedRedis redis;
    private RedisTurnEventLog log;
    private RedisTurnEventLog otherInstance;

    @BeforeEach
    void connect() {
        redis = SharedRedis.create(RedisTestServer.require());
        TurnEventLogSettings settings =
                new TurnEventLogSettings(100, Duration.ofMinutes(1), "baton-it:" + UUID.randomUUID() + ":");
        log = RedisTurnEventLog.connect(redis, settings);
        otherInstance = RedisTurnEventLog.connect(redis, settings);
    }

    @AfterEach
    void close() {
        if (log != null) log.close();
        if (otherInstance != null) otherInstance.close();
        if (redis != null) redis.close();
    }

    /** Reads until {@code count} events after {@code after} arrived (appends are sent without waiting). */
    private static List<TurnEventLog.LoggedEvent> readAll(TurnEventLog log, String turn, long after, int count) {
        try (TurnEventLog.Reader reader = log.reader(turn)) {
            List<TurnEventLog.LoggedEvent> found = new java.util.ArrayList<>();
            long last = after;
            while (found.size() < count) {
                List<TurnEventLog.LoggedEvent> read = reader.read(last, Duration.ofSeconds(5));
                if (read.isEmpty()) break;
                found.addAll(read);
                last = read.getLast().id();
            }
            return found;
        }
    }

    @Test
    void another_instance_reads_the_events_in_order_from_any_number() {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        for (int i = 1; i <= 5; i++)
            assertThat(writer.append("chunk", "{\"n\":" + i + "}")).isEqualTo(i);

        assertThat(readAll(otherInstance, "turn-1", 0, 5))
                .extracting(TurnEventLog.LoggedEvent::id)
                .containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(readAll(otherInstance, "turn-1", 3, 2))
                .containsExactly(
                        new TurnEventLog.LoggedEvent(4, "chunk", "{\"n\":4}"),
                        new TurnEventLog.LoggedEvent(5, "chunk", "{\"n\":5}"));
        assertThat(otherInstance.owner("turn-1")).contains(OWNER);
        assertThat(otherInstance.owner("turn-unknown")).isEmpty();
        assertThat(otherInstance.lastTurn("s1")).contains("turn-1");
    }

    @Test
    void another_instance_reads_back_the_turn_events_themselves() {
        TurnEventLog.Writer writer = log.writer("turn-5", OWNER);
        List<TurnEvent> events = List.of(
                new TurnEvent.Started("turn-5", "s1", "req-1"),
                new TurnEvent.ToolCallStarted(
                        "call_1",
                        "add_task",
                        JsonNodeFactory.instance.objectNode().put("t", "x")),
                new TurnEvent.Failed("model_unavailable", "down", true, Duration.ofSeconds(2)));
        events.forEach(writer::append);

        assertThat(readAll(otherInstance, "turn-5", 0, 3))
                .extracting(TurnEventLog.LoggedEvent::event)
                .containsExactlyElementsOf(events);
    }

    @Test
    void a_turn_going_on_elsewhere_numbers_after_the_kept_events() {
        TurnEventLog.Writer writer = log.writer("turn-2", OWNER);
        writer.append("chunk", "{}");
        writer.append("done", "{}");
        assertThat(readAll(otherInstance, "turn-2", 0, 2)).hasSize(2);

        assertThat(otherInstance.writer("turn-2", OWNER).append("turn.started", "{}"))
                .isEqualTo(3);
    }

    @Test
    void a_blocked_reader_on_another_instance_wakes_when_an_event_is_appended() throws Exception {
        TurnEventLog.Writer writer = log.writer("turn-3", OWNER);
        writer.append("turn.started", "{}");
        readAll(otherInstance, "turn-3", 0, 1);
        CompletableFuture<List<TurnEventLog.LoggedEvent>> waiting = CompletableFuture.supplyAsync(() -> {
            try (TurnEventLog.Reader reader = otherInstance.reader("turn-3")) {
                return reader.read(1, Duration.ofSeconds(30));
            }
        });

        writer.append("chunk", "{\"content\":\"hi\"}");

        assertThat(waiting.get(30, TimeUnit.SECONDS))
                .containsExactly(new TurnEventLog.LoggedEvent(2, "chunk", "{\"content\":\"hi\"}"));
    }

    @Test
    void a_long_turn_keeps_only_about_its_newest_events() {
        TurnEventLog.Writer writer = log.writer("turn-4", OWNER);
        for (int i = 1; i <= 1000; i++) writer.append("chunk", "{}");
        log.owner("turn-4"); // a round trip after the appends on the same connection: they are applied

        List<TurnEventLog.LoggedEvent> kept;
        try (TurnEventLog.Reader reader = otherInstance.reader("turn-4")) {
            kept = reader.read(0, Duration.ZERO);
        }
        assertThat(kept.size()).isBetween(100, 999);
        assertThat(kept.getLast().id()).isEqualTo(1000);
    }
}
