package dev.baton.runtime.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import org.junit.jupiter.api.Test;

class MessageContentTest {

    private static void refused(String raw, String code) {
        assertThatThrownBy(() -> MessageContent.normalize(raw)).isInstanceOfSatisfying(RefusalException.class, e -> {
            assertThat(e.refusal()).isInstanceOf(Refusal.InvalidInput.class);
            assertThat(e.refusal().code()).isEqualTo(code);
        });
    }

    @Test
    void keeps_newlines_tabs_and_returns_and_strips_other_controls() {
        assertThat(MessageContent.normalize("a\u0001b\u007fc\u0085d\te\r\nf")).isEqualTo("abcd\te\r\nf");
    }

    @Test
    void keeps_non_ascii_text_intact() {
        assertThat(MessageContent.normalize("café — 日本語 🎉")).isEqualTo("café — 日本語 🎉");
    }

    @Test
    void rejects_nul_empty_and_blank() {
        refused("a\0b", "invalid_content");
        refused("", "invalid_content");
        refused("   \n", "invalid_content");
        refused("\u0007", "invalid_content");
        refused(null, "invalid_request");
    }

    @Test
    void counts_characters_not_utf16_units_at_the_limit() {
        String emoji = "🎉".repeat(MessageContent.MAX_CHARS); // 20,000 UTF-16 units, 10,000 characters
        assertThat(MessageContent.normalize(emoji)).isEqualTo(emoji);
        refused(emoji + "a", "message_too_long");
    }

    @Test
    void control_characters_do_not_count_towards_the_limit() {
        String text = "a".repeat(MessageContent.MAX_CHARS) + "\u0007\u0007";
        assertThat(MessageContent.normalize(text)).hasSize(MessageContent.MAX_CHARS);
    }
}
