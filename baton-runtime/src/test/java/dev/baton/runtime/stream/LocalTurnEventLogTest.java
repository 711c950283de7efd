package dev.baton.runtime.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.turn.TurnEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LocalTurnEventLogTest {
    private static final TurnEventLog.TurnOwner OWNER = new TurnEventLog.TurnOwner("t1", "ann", "s1");

    private final TurnEventLog log = TurnEventLog.inProcess(new TurnEventLogSettings(5, Duration.ofMinutes(10), null));

    @Test
    void events_are_numbered_per_turn_and_read_after_a_given_number() {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        for (int i = 1; i <= 3; i++)
            assertThat(writer.append("chunk", "{\"n\":" + i + "}")).isEqualTo(i);

        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(0, Duration.ZERO))
                    .extracting(TurnEventLog.LoggedEvent::id)
                    .containsExactly(1L, 2L, 3L);
            assertThat(reader.read(2, Duration.ZERO))
                    .containsExactly(new TurnEventLog.LoggedEvent(3, "chunk", "{\"n\":3}"));
            assertThat(reader.read(3, Duration.ZERO)).isEmpty();
        }
        assertThat(log.owner("turn-1")).contains(OWNER);
        assertThat(log.owner("turn-2")).isEmpty();
        assertThat(log.lastTurn("s1")).contains("turn-1");
    }

    @Test
    void a_chunk_kept_as_its_event_reads_back_in_its_encoding_while_live_trimmed_and_packed() {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        for (int i = 1; i <= 6; i++) writer.append(new TurnEvent.Chunk("piece " + i + " \"é😀\"\n"));
        writer.append("done", "{}");

        List<TurnEventLog.LoggedEvent> live;
        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            live = reader.read(0, Duration.ZERO);
        }
        // five kept of seven: the oldest two chunks were trimmed
        assertThat(live).extracting(TurnEventLog.LoggedEvent::id).containsExactly(3L, 4L, 5L, 6L, 7L);
        assertThat(live.getFirst())
                .isEqualTo(new TurnEventLog.LoggedEvent(
                        3, "chunk", TurnEventCodec.encode(new TurnEvent.Chunk("piece 3 \"é😀\"\n"))));
        assertThat(live.getFirst().event()).isEqualTo(new TurnEvent.Chunk("piece 3 \"é😀\"\n"));

        writer.ended();
        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(0, Duration.ZERO)).isEqualTo(live);
            assertThat(reader.read(5, Duration.ZERO)).isEqualTo(live.subList(3, 5));
        }
    }

    @Test
    void only_the_newest_events_are_kept_and_a_turn_going_on_numbers_after_them() {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        for (int i = 1; i <= 7; i++) writer.append("chunk", "{}");

        long next = log.writer("turn-1", OWNER).append("done", "{}");

        assertThat(next).isEqualTo(8);
        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(0, Duration.ZERO))
                    .extracting(TurnEventLog.LoggedEvent::id)
                    .containsExactly(4L, 5L, 6L, 7L, 8L);
        }
    }

    @Test
    void beyond_the_cap_the_turn_appended_to_longest_ago_is_forgotten_first() {
        List<TurnEventLog.Writer> writers = new java.util.ArrayList<>();
        for (int i = 0; i < LocalTurnEventLog.MAX_TURNS; i++) {
            writers.add(log.writer("turn-" + i, new TurnEventLog.TurnOwner("t1", "ann", "s" + i)));
        }
        // the oldest turn is still going on: the one written to longest ago is now turn-1
        writers.getFirst().append("chunk", "{}");

        TurnEventLog.TurnOwner newcomer = new TurnEventLog.TurnOwner("t1", "bob", "s-new");
        log.writer("turn-new", newcomer);

        assertThat(log.owner("turn-1")).isEmpty();
        assertThat(log.lastTurn("s1")).isEmpty();
        assertThat(log.owner("turn-0")).isPresent();
        assertThat(log.owner("turn-2")).isPresent();
        assertThat(log.owner("turn-new")).contains(newcomer);
    }

    @Test
    void a_waiting_reader_wakes_when_an_event_is_appended() throws Exception {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        writer.append("turn.started", "{}");
        CompletableFuture<List<TurnEventLog.LoggedEvent>> waiting = CompletableFuture.supplyAsync(() -> {
            try (TurnEventLog.Reader reader = log.reader("turn-1")) {
                return reader.read(1, Duration.ofMinutes(1));
            }
        });

        writer.append("chunk", "{\"content\":\"hi\"}");

        assertThat(waiting.get(30, TimeUnit.SECONDS))
                .containsExactly(new TurnEventLog.LoggedEvent(2, "chunk", "{\"content\":\"hi\"}"));
    }

    @Test
    void a_turn_whose_stream_ended_reads_the_same_events_packed() {
        TurnEventLog.Writer writer = log.writer("turn-1", OWNER);
        writer.append("turn.started", "{}");
        writer.append("chunk", "{\"content\":\"héllo — “milk”\"}");
        writer.append("done", "{\"stopReason\":\"completed\"}");

        writer.ended();

        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(0, Duration.ZERO))
                    .containsExactly(
                            new TurnEventLog.LoggedEvent(1, "turn.started", "{}"),
                            new TurnEventLog.LoggedEvent(2, "chunk", "{\"content\":\"héllo — “milk”\"}"),
                            new TurnEventLog.LoggedEvent(3, "done", "{\"stopReason\":\"completed\"}"));
            assertThat(reader.read(2, Duration.ZERO))
                    .containsExactly(new TurnEventLog.LoggedEvent(3, "done", "{\"stopReason\":\"completed\"}"));
            assertThat(reader.read(3, Duration.ZERO)).isEmpty();
        }
        assertThat(log.owner("turn-1")).contains(OWNER);
        assertThat(log.lastTurn("s1")).contains("turn-1");
    }

    @Test
    void a_paused_turn_going_on_numbers_after_its_packed_events_and_the_oldest_are_still_dropped() {
        TurnEventLog.Writer paused = log.writer("turn-1", OWNER);
        for (int i = 1; i <= 4; i++) paused.append("chunk", "{\"n\":" + i + "}");
        paused.ended();

        TurnEventLog.Writer goingOn = log.writer("turn-1", OWNER);
        assertThat(goingOn.append("chunk", "{\"n\":5}")).isEqualTo(5);
        goingOn.append("chunk", "{\"n\":6}");
        goingOn.append("done", "{\"n\":7}");

        // five kept (the settings' maxEvents): the two oldest, both packed, are gone
        List<String> expected = List.of("{\"n\":3}", "{\"n\":4}", "{\"n\":5}", "{\"n\":6}", "{\"n\":7}");
        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(0, Duration.ZERO))
                    .extracting(TurnEventLog.LoggedEvent::id)
                    .containsExactly(3L, 4L, 5L, 6L, 7L);
            assertThat(reader.read(0, Duration.ZERO))
                    .extracting(TurnEventLog.LoggedEvent::data)
                    .containsExactlyElementsOf(expected);
        }
        goingOn.ended();
        try (TurnEventLog.Reader reader = log.reader("turn-1")) {
            assertThat(reader.read(0, Duration.ZERO))
                    .extracting(TurnEventLog.LoggedEvent::data)
                    .containsExactlyElementsOf(expected);
            assertThat(reader.read(5, Duration.ZERO))
                    .containsExactly(
                            new TurnEventLog.LoggedEvent(6, "chunk", "{\"n\":6}"),
                            new TurnEventLog.LoggedEvent(7, "done", "{\"n\":7}"));
        }
    }
}
