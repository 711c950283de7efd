package dev.baton.providers.token;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class JtokkitTokenCounterTest {

    private final JtokkitTokenCounter counter = new JtokkitTokenCounter();

    @Test
    void uses_the_o200k_encoding_by_default() {
        assertThat(counter.encodingName()).isEqualTo("o200k_base");
    }

    @Test
    void counts_known_strings_like_the_tokenizer_does() {
        // "hello world" is two tokens in every tiktoken encoding
        assertThat(counter.count("hello world")).isEqualTo(2);
        assertThat(new JtokkitTokenCounter(EncodingType.CL100K_BASE).count("hello world"))
                .isEqualTo(2);
    }

    @Test
    void empty_and_null_text_count_as_zero() {
        assertThat(counter.count("")).isZero();
        assertThat(counter.count(null)).isZero();
    }

    @Test
    void longer_text_counts_more_tokens_but_fewer_than_characters() {
        var sentence = "Baton streams the answer over server-sent events while it persists every message.";
        int one = counter.count(sentence);
        int ten = counter.count(sentence.repeat(10));

        assertThat(one).isBetween(10, sentence.length() - 1);
        assertThat(ten).isGreaterThan(one * 9);
    }

    @Test
    void special_token_text_is_counted_as_plain_text_rather_than_rejected() {
        assertThat(counter.count("<|endoftext|>")).isGreaterThan(1);
    }

    @Test
    void counts_the_same_from_many_threads_at_once() throws Exception {
        var text = "Ünïcödé text, emoji 🎉 and code: for (int i = 0; i < n; i++) { sum += i; }";
        int expected = counter.count(text);
        var tasks = new ArrayList<Callable<Integer>>();
        for (int i = 0; i < 64; i++) {
            tasks.add(() -> counter.count(text));
        }
        try (var pool = Executors.newFixedThreadPool(8)) {
            for (Future<Integer> result : pool.invokeAll(tasks)) {
                assertThat(result.get()).isEqualTo(expected);
            }
        }
    }
}
