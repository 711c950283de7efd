package dev.baton.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.config.Yaml;
import dev.baton.server.compat.CompatSettings;
import dev.baton.server.web.WebPageSettings;
import org.junit.jupiter.api.Test;

/** The server's own sections (compat, web) refuse keys they do not know, down to their nested maps. */
class ServerSectionKeysTest {

    @Test
    void a_misspelt_key_of_a_design_surface_is_refused_and_a_plain_switch_still_works() {
        assertThatThrownBy(() -> CompatSettings.parse(Yaml.parse("todoChatbot: {enabeld: false}")))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("unknown key 'enabeld' in compat.todoChatbot");
        assertThat(CompatSettings.parse(Yaml.parse("todoChatbot: false"))).isNotNull();
    }

    @Test
    void a_misspelt_key_of_the_web_section_is_refused() {
        assertThatThrownBy(() -> WebPageSettings.parse(Yaml.parse("image: allow")))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("unknown key 'image' in web");
    }
}
