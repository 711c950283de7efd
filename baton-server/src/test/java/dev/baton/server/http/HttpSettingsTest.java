package dev.baton.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class HttpSettingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void the_sse_buffer_bound_defaults_to_16_kib_and_is_read_from_the_server_section() throws Exception {
        assertThat(HttpSettings.from(JSON.readTree("{}")).sseBufferBytes()).isEqualTo(16 * 1024);
        assertThat(HttpSettings.from(null).sseBufferBytes()).isEqualTo(SseStreams.DEFAULT_BUFFER_BYTES);
        assertThat(HttpSettings.from(JSON.readTree("{\"sseBufferBytes\": 4096}"))
                        .sseBufferBytes())
                .isEqualTo(4096);
    }

    @Test
    void an_sse_buffer_bound_out_of_range_or_not_a_number_is_refused_with_the_key() {
        assertThatThrownBy(() -> HttpSettings.from(JSON.readTree("{\"sseBufferBytes\": 100}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server.sseBufferBytes must be 1024..67108864");
        assertThatThrownBy(() -> HttpSettings.from(JSON.readTree("{\"sseBufferBytes\": \"big\"}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server.sseBufferBytes must be a number");
    }
}
