package dev.baton.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestIdHeaderTest {

    @Test
    void a_sane_id_is_echoed() {
        assertThat(RequestIdHeader.accept("req-1.a:b_C")).isEqualTo("req-1.a:b_C");
        assertThat(RequestIdHeader.accept("x".repeat(128))).hasSize(128);
    }

    @Test
    void anything_else_gets_a_new_id() {
        for (String unsafe : new String[] {null, "", "has space", "line\nbreak", "x".repeat(129), "<script>"}) {
            String id = RequestIdHeader.accept(unsafe);
            assertThat(id).isNotEqualTo(unsafe).isNotBlank().matches("[A-Za-z0-9._:\\-]{1,128}");
        }
        assertThat(RequestIdHeader.accept(null)).isNotEqualTo(RequestIdHeader.accept(null));
    }
}
