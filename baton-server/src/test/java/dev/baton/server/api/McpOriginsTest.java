package dev.baton.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class McpOriginsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static McpOrigins read(String serverSectionJson) throws Exception {
        return McpOrigins.from(JSON.readTree(serverSectionJson));
    }

    @Test
    void without_the_setting_only_requests_without_origin_and_loopback_pages_may_call() throws Exception {
        McpOrigins origins = read("{}");

        assertThat(origins.allows(null)).isTrue();
        assertThat(origins.allows("http://localhost:6274")).isTrue();
        assertThat(origins.allows("https://127.0.0.1")).isTrue();
        assertThat(origins.allows("http://[::1]:8080")).isTrue();
        assertThat(origins.allows("http://baton.example.com")).isFalse();
        assertThat(origins.allows("http://localhost.evil.example")).isFalse();
        assertThat(origins.allows("null")).isFalse();
        assertThat(origins.allows("file://")).isFalse();
        assertThat(origins.allows("not an origin at all")).isFalse();
    }

    @Test
    void a_listed_origin_matches_exactly_whatever_its_case_or_trailing_slash() throws Exception {
        McpOrigins origins =
                read("{\"mcpAllowedOrigins\": [\"https://App.Example.com/\", \"http://tools.example:9000\"]}");

        assertThat(origins.allows("https://app.example.com")).isTrue();
        assertThat(origins.allows("HTTPS://APP.EXAMPLE.COM")).isTrue();
        assertThat(origins.allows("http://tools.example:9000")).isTrue();
        assertThat(origins.allows("http://app.example.com"))
                .as("another scheme")
                .isFalse();
        assertThat(origins.allows("https://app.example.com:8443"))
                .as("another port")
                .isFalse();
        assertThat(origins.allows("https://app.example.com.evil.example")).isFalse();
        assertThat(origins.allows("http://tools.example")).isFalse();
    }

    @Test
    void an_entry_that_is_not_an_origin_is_refused_naming_it() {
        for (String bad : new String[] {
            "[\"app.example.com\"]",
            "[\"ftp://app.example.com\"]",
            "[\"https://app.example.com/path\"]",
            "[\"https://user@app.example.com\"]",
            "[\"https://app.example.com?x=1\"]",
            "[42]",
            "\"https://app.example.com\""
        }) {
            JsonNode section;
            try {
                section = JSON.readTree("{\"mcpAllowedOrigins\": " + bad + "}");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertThatThrownBy(() -> McpOrigins.from(section))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("server.mcpAllowedOrigins");
        }
    }
}
