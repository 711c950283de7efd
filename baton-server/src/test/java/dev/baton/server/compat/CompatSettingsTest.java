package dev.baton.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.app.config.ConfigLoader;
import dev.baton.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;

/** baton.yaml's {@code compat} section. */
class CompatSettingsTest {

    @Test
    void every_surface_is_on_by_default_with_its_designs_agent() {
        CompatSettings settings = CompatSettings.parse(MissingNode.getInstance());

        assertThat(settings.aiLayer()).isEqualTo(new CompatSettings.Surface(true, "learning-platform"));
        assertThat(settings.orchestrator()).isEqualTo(new CompatSettings.Surface(true, "tasks"));
        assertThat(settings.todoChatbot()).isEqualTo(new CompatSettings.Surface(true, "tasks"));
        assertThat(settings.learningAgent()).isEqualTo(new CompatSettings.Surface(true, "learning"));
    }

    @Test
    void a_surface_is_switched_off_by_a_boolean_or_enabled_false_and_may_name_another_agent() throws Exception {
        CompatSettings settings = CompatSettings.parse(
                yaml("{orchestrator: false, todoChatbot: {enabled: false}, aiLayer: {agent: tutor}}"));

        assertThat(settings.orchestrator().enabled()).isFalse();
        assertThat(settings.todoChatbot().enabled()).isFalse();
        assertThat(settings.aiLayer()).isEqualTo(new CompatSettings.Surface(true, "tutor"));
    }

    @Test
    void held_calls_are_confirmed_in_words_unless_a_surface_says_false() throws Exception {
        CompatSettings settings = CompatSettings.parse(yaml("{todoChatbot: {confirmInWords: false}}"));

        assertThat(settings.todoChatbot()).isEqualTo(new CompatSettings.Surface(true, "tasks", false));
        assertThat(settings.orchestrator().confirmInWords()).isTrue();
        assertThat(settings.aiLayer().confirmInWords()).isTrue();
        assertThat(settings.learningAgent().confirmInWords()).isTrue();
        assertThatThrownBy(() -> CompatSettings.parse(yaml("{orchestrator: {confirmInWords: sometimes}}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("compat.orchestrator.confirmInWords must be true or false");
    }

    @Test
    void unknown_surfaces_and_bad_values_stop_the_start() {
        assertThatThrownBy(() -> CompatSettings.parse(yaml("{chatkit: true}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown surface 'chatkit'");
        assertThatThrownBy(() -> CompatSettings.parse(yaml("{orchestrator: {enabled: maybe}}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("compat.orchestrator.enabled must be true or false");
    }

    private static JsonNode yaml(String text) throws Exception {
        return ConfigLoader.yamlMapper().readTree(text);
    }
}
