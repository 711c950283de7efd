package dev.baton.core.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SystemPromptSectionsTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30Z");

    @Test
    void sections_are_trimmed_blank_ones_left_out_and_in_their_fixed_order() {
        String prompt = SystemPrompt.render(
                "\n  Be helpful.\t\n",
                new PromptSections("  Physics 101 ", "   ", List.of("Be brief."), null),
                NOW,
                null);

        assertThat(prompt)
                .isEqualTo("## Core Behavior\nBe helpful.\n\n"
                        + "## Assignment Context\nPhysics 101\n\n"
                        + "## Additional Guidance\nBe brief.\n\n"
                        + "Current date and time: 2026-11-21T10:15:30Z (Saturday, UTC)");
    }
}
