package dev.baton.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.Random;
import org.junit.jupiter.api.Test;

class TextPiecesTest {

    @Test
    void empty_text_is_the_empty_string() {
        TextPieces text = new TextPieces();
        assertThat(text.isEmpty()).isTrue();
        assertThat(text.length()).isZero();
        assertThat(text).hasToString("");
        assertThat(text.append("").isEmpty()).isTrue();
    }

    @Test
    void gives_back_exactly_what_was_appended_in_order_whatever_the_sizes_and_characters() {
        Random random = new Random(29);
        TextPieces text = new TextPieces();
        StringBuilder expected = new StringBuilder();
        String alphabet = "ab cdé€\n😀"; // Latin-1, beyond Latin-1, a surrogate pair
        for (int i = 0; i < 2_000; i++) {
            int size = random.nextInt(10) == 0 ? 200 + random.nextInt(2_000) : random.nextInt(12);
            StringBuilder piece = new StringBuilder();
            for (int c = 0; c < size; c++) piece.append(alphabet.charAt(random.nextInt(alphabet.length())));
            text.append(piece.toString());
            expected.append(piece);
            assertThat(text.length()).isEqualTo(expected.length());
        }
        assertThat(text.toString()).isEqualTo(expected.toString());
    }

    @Test
    void a_surrogate_pair_split_across_two_appends_stays_one_character() {
        String emoji = "😀";
        TextPieces text = new TextPieces()
                .append("x".repeat(TextPieces.SHARED_AT) + emoji.charAt(0))
                .append(emoji.substring(1));
        assertThat(text.toString()).endsWith(emoji).hasSize(TextPieces.SHARED_AT + 2);
    }

    @Test
    void a_long_piece_is_kept_as_the_very_string_given() {
        String delta = "x".repeat(TextPieces.SHARED_AT);
        TextPieces text = new TextPieces().append(delta);
        assertThat(text.toString()).isSameAs(delta);
    }

    @Test
    void short_pieces_are_gathered_into_a_few_strings() {
        TextPieces text = new TextPieces();
        for (int i = 0; i < 10_000; i++) text.append("tok ");
        assertThat(text.length()).isEqualTo(40_000);
        // 40,000 characters in pieces of about GATHER, not 10,000 strings
        assertThat(text.pieceCount()).isBetween(40_000 / (TextPieces.GATHER + 4), 40_000 / TextPieces.GATHER + 1);
        assertThat(text.toString()).isEqualTo("tok ".repeat(10_000));
    }

    @Test
    void gathered_short_pieces_stay_before_a_long_piece_that_follows_them() {
        String longPiece = "L".repeat(TextPieces.SHARED_AT);
        TextPieces text =
                new TextPieces().append("a").append("b").append(longPiece).append("c");
        assertThat(text.toString()).isEqualTo("ab" + longPiece + "c");
        assertThat(text.pieceCount()).isEqualTo(3);
    }

    @Test
    void starts_from_an_initial_text_and_can_be_cleared() {
        TextPieces text = TextPieces.of("saved answer");
        text.append(", more");
        assertThat(text).hasToString("saved answer, more");
        text.clear();
        assertThat(text.isEmpty()).isTrue();
        assertThat(text.append("again")).hasToString("again");
    }

    @Test
    void a_null_piece_is_refused() {
        assertThatNullPointerException().isThrownBy(() -> new TextPieces().append(null));
    }
}
