package dev.baton.core.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CachingTokenCounterTest {

    /** Counts words and remembers every text it was asked about. */
    private static final class WordCounter implements TokenCounter {
        final List<String> asked = new ArrayList<>();

        @Override
        public int count(String text) {
            asked.add(text);
            if ("boom".equals(text)) throw new IllegalStateException("tokeniser failed");
            return text == null || text.isBlank() ? 0 : text.strip().split("\\s+").length;
        }
    }

    private final WordCounter words = new WordCounter();
    private final TokenCounter cached = CachingTokenCounter.of(words);

    @Test
    void a_text_is_counted_once_and_its_count_remembered() {
        assertThat(cached.count("buy milk today")).isEqualTo(3);
        assertThat(cached.count(new String("buy milk today"))).isEqualTo(3);
        assertThat(cached.count("buy milk")).isEqualTo(2);

        assertThat(words.asked).containsExactly("buy milk today", "buy milk");
    }

    @Test
    void empty_and_null_texts_go_to_the_counter_uncached() {
        assertThat(cached.count("")).isZero();
        assertThat(cached.count(null)).isZero();
        assertThat(cached.count("")).isZero();

        assertThat(words.asked).containsExactly("", null, "");
    }

    @Test
    void texts_longer_than_a_tenth_of_the_bound_are_counted_every_time() {
        String huge = "word ".repeat((int) (CachingTokenCounter.DEFAULT_MAX_CHARS / 10 / 5) + 1);

        cached.count(huge);
        cached.count(huge);

        assertThat(words.asked).hasSize(2);
    }

    @Test
    void a_failed_count_is_not_remembered() {
        assertThatThrownBy(() -> cached.count("boom")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cached.count("boom")).isInstanceOf(IllegalStateException.class);

        assertThat(words.asked).containsExactly("boom", "boom");
    }

    @Test
    void wrapping_a_caching_counter_again_keeps_one_cache() {
        assertThat(CachingTokenCounter.of(cached)).isSameAs(cached);
    }
}
