package dev.baton.core.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RecentWindowsTest {
    private static final String ALICE = "alice";
    private static final String SESSION = "s-1";

    private final RecentWindows windows = new RecentWindows();

    @Test
    void a_window_is_served_only_as_of_its_newest_seq() {
        windows.loaded(ALICE, SESSION, messages(1, 3), 5);

        assertThat(seqs(windows.newest(ALICE, SESSION, 3, 5).orElseThrow())).containsExactly(1L, 2L, 3L);
        assertThat(windows.newest(ALICE, SESSION, 4, 5)).isEmpty();
        assertThat(windows.newest(ALICE, SESSION, 2, 5)).isEmpty();
    }

    @Test
    void another_users_window_is_never_served() {
        windows.loaded(ALICE, SESSION, messages(1, 3), 5);

        assertThat(windows.newest("bob", SESSION, 3, 5)).isEmpty();
    }

    @Test
    void stored_messages_join_in_order_and_the_oldest_leave_past_the_limit() {
        windows.loaded(ALICE, SESSION, messages(1, 3), 3);

        windows.stored(message(4));
        windows.stored(message(5));

        assertThat(seqs(windows.newest(ALICE, SESSION, 5, 3).orElseThrow())).containsExactly(3L, 4L, 5L);
        assertThat(seqs(windows.newest(ALICE, SESSION, 5, 2).orElseThrow())).containsExactly(4L, 5L);
        // it no longer holds the whole session: a longer history is not here
        assertThat(windows.newest(ALICE, SESSION, 5, 4)).isEmpty();
    }

    @Test
    void a_window_holding_the_whole_session_serves_any_limit() {
        windows.loaded(ALICE, SESSION, messages(1, 2), 10);

        assertThat(seqs(windows.newest(ALICE, SESSION, 2, 50).orElseThrow())).containsExactly(1L, 2L);
    }

    @Test
    void a_message_that_does_not_follow_the_newest_drops_the_window() {
        windows.loaded(ALICE, SESSION, messages(1, 3), 5);

        windows.stored(message(5)); // seq 4 was stored by someone else

        assertThat(windows.newest(ALICE, SESSION, 5, 5)).isEmpty();
        assertThat(windows.newest(ALICE, SESSION, 3, 5)).isEmpty();
    }

    @Test
    void a_session_without_messages_starts_an_empty_window_that_stored_messages_fill() {
        windows.loaded(ALICE, SESSION, List.of(), 5);

        windows.stored(message(1));

        assertThat(seqs(windows.newest(ALICE, SESSION, 1, 5).orElseThrow())).containsExactly(1L);
    }

    private static List<Message> messages(long from, long to) {
        return LongStream.rangeClosed(from, to)
                .mapToObj(RecentWindowsTest::message)
                .toList();
    }

    private static Message message(long seq) {
        return new Message(
                "m" + seq,
                SESSION,
                ALICE,
                seq,
                seq % 2 == 1 ? MessageRole.USER : MessageRole.ASSISTANT,
                "text " + seq,
                MessageStatus.COMPLETE,
                null,
                Instant.EPOCH);
    }

    private static List<Long> seqs(List<Message> messages) {
        return messages.stream().map(Message::seq).toList();
    }
}
