package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfirmationReplyTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "yes",
                "Yes",
                "YES!",
                " yes. ",
                "y",
                "Y",
                "yeah",
                "Yep!",
                "sure",
                "Sure.",
                "ok",
                "OK",
                "okay",
                "Okay!!",
                "confirm",
                "Confirmed.",
                "do it",
                "Do it!",
                "go ahead",
                "Go ahead…",
                "go  ahead",
                "yes, please",
                "Yes please!",
                "'yes'",
                "\"yes\"",
                "yes 👍"
            })
    void a_clear_yes_approves(String message) {
        assertThat(ConfirmationReply.of(message)).isEqualTo(ConfirmationReply.YES);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "no",
                "No.",
                "NO!",
                "n",
                "nope",
                "nah",
                "cancel",
                "Cancel!",
                "stop",
                "STOP",
                "don't",
                "Don’t",
                "dont",
                "do not",
                "Don't do it.",
                "no thanks",
                "No, thank you.",
                "keep it",
                "abort"
            })
    void a_clear_no_denies(String message) {
        assertThat(ConfirmationReply.of(message)).isEqualTo(ConfirmationReply.NO);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "yes, but only the first one",
                "no wait, delete buy milk instead",
                "what is on my list?",
                "yesterday",
                "not sure",
                "noted",
                "okay so what else",
                "y?n",
                "!!!",
                "   "
            })
    void anything_else_is_neither(String message) {
        assertThat(ConfirmationReply.of(message)).isEqualTo(ConfirmationReply.OTHER);
    }

    @org.junit.jupiter.api.Test
    void no_message_is_neither() {
        assertThat(ConfirmationReply.of(null)).isEqualTo(ConfirmationReply.OTHER);
    }

    @org.junit.jupiter.api.Test
    void the_phrase_lists_do_not_overlap_and_are_written_normalised() {
        assertThat(ConfirmationReply.YES_PHRASES).doesNotContainAnyElementsOf(ConfirmationReply.NO_PHRASES);
        ConfirmationReply.YES_PHRASES.forEach(
                p -> assertThat(ConfirmationReply.normalize(p)).isEqualTo(p));
        ConfirmationReply.NO_PHRASES.forEach(
                p -> assertThat(ConfirmationReply.normalize(p)).isEqualTo(p));
    }
}
