package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeltaSplitterTest {

    @Test
    void word_pieces_join_back_to_the_exact_text() {
        var text = "  Hello,\nworld —  how are\tyou? ";

        var pieces = DeltaSplitter.words(text, 2);

        assertThat(String.join("", pieces)).isEqualTo(text);
        assertThat(pieces).hasSize(3);
    }

    @Test
    void empty_text_has_no_pieces_and_whitespace_only_text_one() {
        assertThat(DeltaSplitter.words("", 1)).isEmpty();
        assertThat(DeltaSplitter.words("   ", 1)).containsExactly("   ");
    }

    @Test
    void word_pieces_are_cut_as_taken_and_the_last_keeps_the_trailing_whitespace() {
        var words = "word ".repeat(1_000_000) + "  \n";

        var firstTwo = DeltaSplitter.wordStream(words, 3).limit(2).toList();
        var pieces = DeltaSplitter.words("a b c d e f  \n", 3);

        assertThat(firstTwo).containsExactly("word word word", " word word word");
        assertThat(pieces).containsExactly("a b c", " d e f  \n");
        assertThat(DeltaSplitter.words("a b c d  ", 3)).containsExactly("a b c", " d  ");
        assertThat(DeltaSplitter.words("  a", 1)).containsExactly("  a");
    }

    @Test
    void fragments_never_split_a_surrogate_pair() {
        var text = "abc😀def";

        var fragments = DeltaSplitter.fragments(text, 1);

        assertThat(String.join("", fragments)).isEqualTo(text);
        assertThat(fragments)
                .allSatisfy(f -> assertThat(Character.isHighSurrogate(f.charAt(f.length() - 1)))
                        .isFalse());
    }
}
