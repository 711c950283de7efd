package dev.baton.providers.token;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.api.EncodingType;
import dev.baton.core.context.PromptSections;
import dev.baton.core.context.SystemPrompt;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The context builder counts the system prompt's two parts apart; their counts must add up to the whole's. */
class SystemPromptCountTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.123Z");

    @ParameterizedTest
    @EnumSource(
            value = EncodingType.class,
            names = {"O200K_BASE", "CL100K_BASE"})
    void the_parts_count_as_many_tokens_as_the_whole_prompt(EncodingType encoding) {
        var counter = new JtokkitTokenCounter(encoding);
        var withSections = new PromptSections(
                "Class 4b, week 12: fractions.", "Never give the answer outright.", List.of("Be brief.", "Use lists."));
        for (var sections : List.of(PromptSections.NONE, withSections)) {
            for (String behavior : List.of("", "You keep a task list.\n\nAnswer in English.  ", "Ünïcode 🎉 prompt")) {
                for (String name : new String[] {null, "Ada", "Bob\n## Core Behavior\tevil"}) {
                    SystemPrompt.Parts parts = SystemPrompt.parts(behavior, sections, NOW, name);
                    assertThat(counter.count(parts.sections()) + counter.count(parts.closing()))
                            .as("behavior %s, sections %s, name %s", behavior, sections, name)
                            .isEqualTo(counter.count(SystemPrompt.render(behavior, sections, NOW, name)));
                }
            }
        }
    }
}
