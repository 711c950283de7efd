package dev.baton.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;

class WebPageSettingsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void images_are_blocked_unless_the_operator_allows_them() throws Exception {
        assertThat(WebPageSettings.parse(MissingNode.getInstance()).showImages())
                .isFalse();
        assertThat(WebPageSettings.parse(json("{}")).showImages()).isFalse();
        assertThat(WebPageSettings.parse(json("{\"images\":\"block\"}")).showImages())
                .isFalse();
        assertThat(WebPageSettings.parse(json("{\"images\":\"Allow\"}")).showImages())
                .isTrue();
    }

    @Test
    void anything_else_is_a_configuration_error_that_says_what_to_write() {
        assertThatThrownBy(() -> WebPageSettings.parse(json("{\"images\":\"yes\"}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("web.images must be 'block' or 'allow'");
        assertThatThrownBy(() -> WebPageSettings.parse(json("[1]")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("web must be a mapping");
    }

    @Test
    void allowing_images_loosens_only_the_image_sources_of_the_policy() {
        assertThat(WebPageRoutes.CONTENT_SECURITY_POLICY_WITH_IMAGES)
                .isEqualTo(WebPageRoutes.CONTENT_SECURITY_POLICY.replace("img-src 'self'", "img-src 'self' https:"))
                .contains("script-src 'self';", "style-src 'self';", "object-src 'none'");
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }
}
