package dev.baton.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChatInputTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private ChatInput input(String typed, boolean terminal) {
        return new ChatInput(
                new BufferedReader(new StringReader(typed)),
                new PrintStream(printed, true, StandardCharsets.UTF_8),
                terminal);
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void a_line_is_a_message_and_the_end_of_the_input_is_null() throws Exception {
        ChatInput in = input("hello\n", false);
        assertThat(in.next("you> ")).isEqualTo("hello");
        assertThat(in.next("you> ")).isNull();
    }

    @Test
    void a_line_ending_in_a_backslash_goes_on_on_the_next() throws Exception {
        assertThat(input("one\\\ntwo\\\nthree\n", false).next("you> ")).isEqualTo("one\ntwo\nthree");
    }

    @Test
    void triple_quotes_start_and_end_a_block() throws Exception {
        assertThat(input("\"\"\"\nfirst\n\nsecond\n\"\"\"\n", false).next("you> "))
                .isEqualTo("first\n\nsecond");
    }

    @Test
    void a_line_as_long_as_the_terminal_allows_is_reported_as_probably_cut() throws Exception {
        String cut = "y".repeat(ChatInput.TERMINAL_LINE_LIMIT);

        assertThat(input(cut + "\n", true).next("you> ")).isEqualTo(cut);

        assertThat(printed()).contains("probably cut").contains("/edit").contains("/file");
    }

    @Test
    void a_line_of_that_length_from_a_pipe_is_not_reported_since_no_terminal_cut_it() throws Exception {
        input("y".repeat(ChatInput.TERMINAL_LINE_LIMIT) + "\n", false).next("you> ");
        assertThat(printed()).doesNotContain("probably cut");
    }
}
