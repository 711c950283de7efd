package dev.baton.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    record Probe(String content) {}

    private static ApiProblem error(Runnable r) {
        try {
            r.run();
        } catch (ApiProblem e) {
            return e;
        }
        throw new AssertionError("expected an ApiProblem");
    }

    @Test
    void reads_up_to_the_limit_even_when_content_length_is_absent_or_lies() {
        byte[] body = "x".repeat(2000).getBytes(StandardCharsets.UTF_8);
        assertThat(RequestBodies.readUtf8(new ByteArrayInputStream(body), -1, 2000))
                .hasSize(2000);
        assertThat(error(() -> RequestBodies.readUtf8(new ByteArrayInputStream(body), -1, 1999))
                        .status())
                .isEqualTo(413);
        assertThat(error(() -> RequestBodies.readUtf8(new ByteArrayInputStream(body), 10, 1999))
                        .status())
                .isEqualTo(413);
        assertThat(error(() -> RequestBodies.readUtf8(new ByteArrayInputStream(new byte[0]), 5000, 1999))
                        .status())
                .isEqualTo(413);
    }

    @Test
    void a_body_longer_or_shorter_than_its_content_length_is_read_whole() {
        byte[] body = "y".repeat(300).getBytes(StandardCharsets.UTF_8);
        assertThat(RequestBodies.readUtf8(new ByteArrayInputStream(body), 10, 2000))
                .hasSize(300);
        assertThat(RequestBodies.readUtf8(new ByteArrayInputStream(body), 1000, 2000))
                .hasSize(300);
        assertThat(RequestBodies.readUtf8(new ByteArrayInputStream(body), 300, 2000))
                .hasSize(300);
    }

    @Test
    void what_a_refused_request_did_not_read_is_read_and_dropped() {
        ByteArrayInputStream rest = new ByteArrayInputStream(new byte[20_000]);
        RequestBodies.discardUnread(rest);
        assertThat(rest.available()).isZero();
        ByteArrayInputStream nothingLeft = new ByteArrayInputStream(new byte[0]);
        RequestBodies.discardUnread(nothingLeft);
        assertThat(nothingLeft.read()).isEqualTo(-1);
    }

    @Test
    void rejects_overlong_and_truncated_utf8_sequences() {
        byte[] overlong = {(byte) 0xC0, (byte) 0xAF};
        byte[] truncated = {'a', (byte) 0xE2, (byte) 0x82};
        byte[] surrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
        for (byte[] b : new byte[][] {overlong, truncated, surrogate}) {
            assertThat(error(() -> RequestBodies.readUtf8(new ByteArrayInputStream(b), b.length, 100))
                            .code())
                    .isEqualTo("invalid_encoding");
        }
    }

    @Test
    void binds_known_fields_and_names_the_unknown_one() {
        assertThat(RequestBodies.bind(RequestBodies.parseObject("{\"content\":\"hi\"}"), Probe.class)
                        .content())
                .isEqualTo("hi");
        ApiProblem e =
                error(() -> RequestBodies.bind(RequestBodies.parseObject("{\"content\":\"hi\",\"x\":1}"), Probe.class));
        assertThat(e.code()).isEqualTo("unknown_field");
        assertThat(e.getMessage()).contains("'x'");
    }

    @Test
    void refuses_numbers_and_booleans_where_a_string_belongs() {
        assertThat(error(() -> RequestBodies.bind(RequestBodies.parseObject("{\"content\":1}"), Probe.class))
                        .getMessage())
                .contains("content");
        assertThat(error(() -> RequestBodies.bind(RequestBodies.parseObject("{\"content\":true}"), Probe.class))
                        .code())
                .isEqualTo("invalid_request");
    }

    @Test
    void rejects_trailing_tokens_duplicates_and_non_objects() {
        assertThat(error(() -> RequestBodies.parseObject("{\"a\":1} {}")).code())
                .isEqualTo("invalid_json");
        assertThat(error(() -> RequestBodies.parseObject("{\"a\":1,\"a\":2}")).code())
                .isEqualTo("invalid_json");
        assertThat(error(() -> RequestBodies.parseObject("\"text\"")).code()).isEqualTo("invalid_json");
        assertThat(error(() -> RequestBodies.parseObject("null")).code()).isEqualTo("invalid_json");
    }
}
