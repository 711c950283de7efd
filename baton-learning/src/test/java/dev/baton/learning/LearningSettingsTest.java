package dev.baton.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.config.Yaml;
import org.junit.jupiter.api.Test;

/** baton.yaml's {@code learning} section refuses keys it does not know, down to its nested maps. */
class LearningSettingsTest {

    @Test
    void a_misspelt_key_of_the_learning_section_or_its_jobs_is_refused() {
        assertThatThrownBy(() -> LearningSettings.parse(Yaml.parse("catalog: none")))
                .hasCauseInstanceOf(ConfigProblem.class)
                .hasMessage("unknown key 'catalog' in learning");
        assertThatThrownBy(() -> LearningSettings.parse(Yaml.parse("contentJobs: {pol: 2s}")))
                .hasMessage("unknown key 'pol' in learning.contentJobs");
        assertThat(LearningSettings.parse(Yaml.parse("contentJobs: {poll: 2s}")))
                .isNotNull();
    }
}
