package dev.baton.providers.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseDataParserTest {

    /** The events' data as the parser yields them from {@code body} cut into buffers of {@code size} bytes. */
    private static List<String> events(String body, int size) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        var parser = new SseDataParser();
        var events = new ArrayList<String>();
        for (int from = 0; from < bytes.length; from += size) {
            // a direct buffer, as the HTTP client's are, holding only this piece
            var buffer = ByteBuffer.allocateDirect(size);
            buffer.put(bytes, from, Math.min(size, bytes.length - from)).flip();
            for (SseData event; (event = parser.next(buffer)) != null; ) events.add(event.text());
            assertThat(buffer.hasRemaining()).as("a buffer is read to its end").isFalse();
        }
        SseData last = parser.end();
        if (last != null) events.add(last.text());
        return events;
    }

    @Test
    void events_come_out_the_same_however_the_body_is_cut() throws IOException {
        String body = "data: {\"a\":1}\n\n: a comment\n\nevent: message\nid: 7\ndata: {\"b\":\"é ✓\"}\n\n"
                + "data: [DONE]\n\n";
        List<String> whole = events(body, body.length() * 4);

        assertThat(whole).containsExactly("{\"a\":1}", "{\"b\":\"é ✓\"}", "[DONE]");
        for (int size = 1; size < 12; size++) {
            assertThat(events(body, size)).as("in buffers of %d bytes", size).isEqualTo(whole);
        }
    }

    @Test
    void lines_end_at_cr_lf_or_crlf_even_when_a_buffer_ends_between_cr_and_lf() throws IOException {
        String body = "data: one\r\n\r\ndata: two\r\rdata: three\n\ndata: four\r\n\r\n";

        for (int size = 1; size < 8; size++) {
            assertThat(events(body, size))
                    .as("in buffers of %d bytes", size)
                    .containsExactly("one", "two", "three", "four");
        }
    }

    @Test
    void data_over_several_lines_is_joined_with_newlines_and_one_leading_space_is_stripped() throws IOException {
        assertThat(events("data:first\ndata:  second\ndata\ndata:\n\n", 5)).containsExactly("first\n second\n");
    }

    @Test
    void blank_lines_without_data_dispatch_nothing() throws IOException {
        assertThat(events("\n\n: ping\n\nretry: 100\n\n", 3)).isEmpty();
    }

    @Test
    void the_last_event_counts_without_its_blank_line_or_even_its_line_end() throws IOException {
        assertThat(events("data: one\n\ndata: two", 4)).containsExactly("one", "two");
        assertThat(events("data: one\n\ndata: two\n", 4)).containsExactly("one", "two");
    }

    @Test
    void a_line_without_end_fails_once_it_is_longer_than_the_bound() {
        var parser = new SseDataParser();
        var megabyte = ByteBuffer.wrap("x".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII));

        assertThatThrownBy(() -> {
                    for (int i = 0; i <= SseDataParser.MAX_EVENT_BYTES >> 20; i++) {
                        parser.next(megabyte.clear());
                    }
                })
                .isInstanceOf(IOException.class)
                .hasMessageContaining("longer than");
    }
}
