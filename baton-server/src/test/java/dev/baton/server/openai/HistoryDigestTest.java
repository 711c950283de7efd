package dev.baton.server.openai;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HistoryDigestTest {

    private static HistoryDigest of(String user, String agent, String... texts) {
        HistoryDigest d = HistoryDigest.start("tenant", user, agent);
        for (int i = 0; i < texts.length; i++) d = d.then(i % 2 == 0 ? "user" : "assistant", texts[i]);
        return d;
    }

    @Test
    void the_same_history_has_the_same_digest_and_extending_it_is_hashing_it_whole() {
        HistoryDigest recorded = of("ann", "tasks", "hi").then("assistant", "hello");

        assertThat(of("ann", "tasks", "hi", "hello").hex())
                .isEqualTo(recorded.hex())
                .hasSize(64);
    }

    @Test
    void white_space_around_a_text_does_not_change_the_digest_but_any_other_change_does() {
        String base = of("ann", "tasks", "hi", "hello").hex();

        assertThat(of("ann", "tasks", " hi\n", "hello ").hex()).isEqualTo(base);
        assertThat(of("ann", "tasks", "hi", "hello!").hex()).isNotEqualTo(base);
        assertThat(of("bob", "tasks", "hi", "hello").hex()).as("another user").isNotEqualTo(base);
        assertThat(of("ann", "notes", "hi", "hello").hex()).as("another agent").isNotEqualTo(base);
        assertThat(HistoryDigest.start("tenant", "ann", "tasks")
                        .then("assistant", "hi")
                        .then("user", "hello")
                        .hex())
                .as("the same texts under other roles")
                .isNotEqualTo(base);
    }

    @Test
    void texts_are_not_confused_by_where_one_ends_and_the_next_begins() {
        assertThat(of("ann", "tasks", "ab", "c").hex())
                .isNotEqualTo(of("ann", "tasks", "a", "bc").hex());
    }
}
