package dev.baton.testkit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventLog.LoggedEvent;
import dev.baton.runtime.stream.TurnEventLog.TurnOwner;
import dev.baton.runtime.stream.TurnEventLogSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TurnEventLog} must do, wherever it keeps the events: numbered 1, 2, … per turn, read back in order
 * after any number by another instance (an event as soon as its append returned), a blocked reader woken by an append, numbering going on after a paused turn's
 * kept events, a long turn trimmed to about its newest events. Run by baton-testkit against
 * {@code TurnEventLog.inProcess} and by baton-redis against Redis Streams.
 *
 * <p>Each test gets fresh logs that keep {@value #MAX_EVENTS} events per turn, under a key prefix of its own.
 */
public abstract class TurnEventLogContract {
    /** How many events of a turn the logs under test keep. */
    protected static final int MAX_EVENTS = 100;

    private static final TurnOwner OWNER = new TurnOwner("t1", "ann", "s1");

    private TurnEventLog log;
    private TurnEventLog otherInstance;

    /** A log under test with these settings. */
    protected abstract TurnEventLog open(TurnEventLogSettings settings);

    /**
     * The log another instance holds over the same events as {@code log}, opened with the same settings; a log kept
     * in one process returns {@code log} itself.
     */
    protected abstract TurnEventLog another(TurnEventLog log, TurnEventLogSettings settings);

    @BeforeEach
    void openLogs() {
        TurnEventLogSettings settings = new TurnEventLogSettings(
                MAX_EVENTS, Duration.ofMinutes(1), "baton-contract:" + UUID.randomUUID() + ":");
        log = open(settings);
        otherInstance = another(log, settings);
    }

    @AfterEach
    void closeLogs() {
        if (otherInstance != null && otherInstance != log) otherInstance.close();
        if (log != null) log.close();
    }

    /** Reads until {@code count} events after {@code after} arrived (a log may apply appends a little later). */
    private static List<LoggedEvent> readAll(TurnEventLog log, String turn, long after, int count) {
        try (TurnEventLog.Reader reader = log.reader(turn)) {
            List<LoggedEvent> found = new ArrayList<>();
            long last = after;
            while (found.size() < count) {
                List<LoggedEvent> read = reader.read(last, Duration.ofSeconds(5));
                if (read.isEmpty()) break;
                found.addAll(read);
                last = read.getLast().id();
            }
            return found;
        }
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
                .extracting(LoggedEvent::event)
                .containsExactlyElementsOf(events);
    }

    /**
     * A door sends an event once its append returned: when the instance dies right after, the event the client saw is
     * in the log, and the instance that takes the turn over numbers its own events after it.
     */
    @Test
    void an_event_is_kept_once_its_append_returned_and_a_run_taken_over_numbers_after_it() {
        TurnEventLog.Writer writer = log.writer("turn-7", OWNER);
        try (TurnEventLog.Reader reader = otherInstance.reader("turn-7")) {
            for (int i = 1; i <= 50; i++) {
                long id = writer.append("chunk", "{\"n\":" + i + "}");
                assertThat(reader.read(id - 1, Duration.ZERO))
                        .as("event %d, read without waiting right after its append", id)
                        .extracting(LoggedEvent::id)
                        .containsExactly(id);
            }
        }
        // the instance dies; another takes the turn over and opens its log again
        assertThat(otherInstance.writer("turn-7", OWNER).append("started", "{}"))
                .isEqualTo(51);
    }

    @Test
    void another_instance_reads_the_events_in_order_from_any_number() {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        for (int i = 1; i <= 5; i++)
            assertThat(writer.append("chunk", "{\"n\":" + i + "}")).isEqualTo(i);

        assertThat(readAll(otherInstance, "turn-1", 0, 5))
                .extracting(LoggedEvent::id)
                .containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(readAll(otherInstance, "turn-1", 3, 2))
                .containsExactly(new LoggedEvent(4, "chunk", "{\"n\":4}"), new LoggedEvent(5, "chunk", "{\"n\":5}"));
        assertThat(otherInstance.owner("turn-1")).contains(OWNER);
        assertThat(otherInstance.owner("turn-unknown")).isEmpty();
        assertThat(otherInstance.lastTurn("s1")).contains("turn-1");
    }

    @Test
    void each_turn_is_numbered_and_read_apart_and_a_sessions_last_turn_is_its_newest() {
        TurnEventLog.Writer first = log.writer("turn-a", OWNER);
        first.append("chunk", "{\"turn\":\"a\"}");
        TurnEventLog.Writer second = log.writer("turn-b", OWNER);
        assertThat(second.append("chunk", "{\"turn\":\"b\"}")).isEqualTo(1);
        assertThat(first.append("done", "{}")).isEqualTo(2);

        assertThat(readAll(otherInstance, "turn-b", 0, 1))
                .containsExactly(new LoggedEvent(1, "chunk", "{\"turn\":\"b\"}"));
        assertThat(readAll(otherInstance, "turn-a", 0, 2))
                .extracting(LoggedEvent::type)
                .containsExactly("chunk", "done");
        assertThat(otherInstance.lastTurn("s1")).contains("turn-b");
        assertThat(otherInstance.lastTurn("s-other")).isEmpty();
    }

    @Test
    void a_turn_going_on_after_its_stream_ended_numbers_after_the_kept_events() {
        TurnEventLog.Writer writer = log.writer("turn-2", OWNER);
        writer.append("chunk", "{}");
        writer.append("approval_required", "{}");
        writer.ended();
        assertThat(readAll(otherInstance, "turn-2", 0, 2)).hasSize(2);

        assertThat(otherInstance.writer("turn-2", OWNER).append("turn.started", "{}"))
                .isEqualTo(3);
        assertThat(readAll(log, "turn-2", 0, 3))
                .extracting(LoggedEvent::id, LoggedEvent::type)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, "chunk"),
                        org.assertj.core.groups.Tuple.tuple(2L, "approval_required"),
                        org.assertj.core.groups.Tuple.tuple(3L, "turn.started"));
    }

    @Test
    void a_blocked_reader_wakes_when_an_event_is_appended() throws Exception {
        TurnEventLog.Writer writer = log.writer("turn-3", OWNER);
        writer.append("turn.started", "{}");
        readAll(otherInstance, "turn-3", 0, 1);
        CompletableFuture<List<LoggedEvent>> waiting = CompletableFuture.supplyAsync(() -> {
            try (TurnEventLog.Reader reader = otherInstance.reader("turn-3")) {
                return reader.read(1, Duration.ofSeconds(30));
            }
        });

        writer.append("chunk", "{\"content\":\"hi\"}");

        assertThat(waiting.get(30, TimeUnit.SECONDS))
                .containsExactly(new LoggedEvent(2, "chunk", "{\"content\":\"hi\"}"));
    }

    @Test
    void a_long_turn_keeps_only_about_its_newest_events() {
        TurnEventLog.Writer writer = log.writer("turn-4", OWNER);
        for (int i = 1; i <= 1000; i++) writer.append("chunk", "{\"n\":" + i + "}");
        log.owner("turn-4"); // a round trip after the appends: a remote log has applied them

        List<LoggedEvent> kept;
        try (TurnEventLog.Reader reader = otherInstance.reader("turn-4")) {
            kept = reader.read(0, Duration.ZERO);
        }
        assertThat(kept.size()).isBetween(MAX_EVENTS, 999);
        assertThat(kept.getFirst().id()).isGreaterThan(1);
        assertThat(kept.getLast()).isEqualTo(new LoggedEvent(1000, "chunk", "{\"n\":1000}"));
    }
}
