package dev.baton.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.config.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JwtSettingsTest {

    static final String SECRET = "0123456789abcdef0123456789abcdef-secret";
    static final JsonNode NONE = MissingNode.getInstance();

    static JsonNode yaml(String text) throws IOException {
        return ConfigLoader.yamlMapper().readTree(text).path("jwt");
    }

    @Test
    void a_secret_alone_means_hs256_with_a_30_second_skew_and_the_tenant_claim() {
        JwtSettings s = JwtSettings.parse(NONE, Map.of(), SECRET);

        assertThat(s.hs256Secret().bytes()).isEqualTo(SECRET.getBytes());
        assertThat(s.jwksUrl()).isNull();
        assertThat(s.issuer()).isNull();
        assertThat(s.audience()).isNull();
        assertThat(s.clockSkew()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.tenantClaim()).isEqualTo("tenant");
        assertThat(s.jwksTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void the_jwt_section_of_baton_yaml_is_read() throws IOException {
        JwtSettings s = JwtSettings.parse(yaml("""
                        jwt:
                          jwksUrl: https://idp.example.org/jwks.json
                          issuer: https://idp.example.org/
                          audience: baton
                          clockSkew: PT1M
                          tenantClaim: org_id
                          jwksTimeout: 500ms
                        """), Map.of(), null);

        assertThat(s.hs256Secret()).isNull();
        assertThat(s.jwksUrl()).isEqualTo(URI.create("https://idp.example.org/jwks.json"));
        assertThat(s.issuer()).isEqualTo("https://idp.example.org/");
        assertThat(s.audience()).isEqualTo("baton");
        assertThat(s.clockSkew()).isEqualTo(Duration.ofMinutes(1));
        assertThat(s.tenantClaim()).isEqualTo("org_id");
        assertThat(s.jwksTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void the_environment_wins_over_baton_yaml() throws IOException {
        JwtSettings s = JwtSettings.parse(
                yaml("jwt: {jwksUrl: 'https://a.example/jwks', issuer: a, audience: a, clockSkew: 1s, tenantClaim: a}"),
                Map.of(
                        "BATON_JWT_JWKS_URL", "https://b.example/jwks",
                        "BATON_JWT_ISSUER", "b",
                        "BATON_JWT_AUDIENCE", "b",
                        "BATON_JWT_CLOCK_SKEW", "5m",
                        "BATON_JWT_TENANT_CLAIM", "b",
                        "BATON_JWT_JWKS_TIMEOUT", "3s"),
                SECRET);

        assertThat(s.jwksUrl()).isEqualTo(URI.create("https://b.example/jwks"));
        assertThat(s.issuer()).isEqualTo("b");
        assertThat(s.audience()).isEqualTo("b");
        assertThat(s.clockSkew()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.tenantClaim()).isEqualTo("b");
        assertThat(s.jwksTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(JwtSettings.parse(yaml("jwt: {issuer: a}"), Map.of("BATON_JWT_ISSUER", "  "), SECRET)
                        .issuer())
                .as("a blank variable does not override")
                .isEqualTo("a");
    }

    @Test
    void durations_are_iso_8601_or_a_number_with_ms_s_m_or_h() {
        assertThat(JwtSettings.parseDuration("PT30S", "x")).isEqualTo(Duration.ofSeconds(30));
        assertThat(JwtSettings.parseDuration("pt2m", "x")).isEqualTo(Duration.ofMinutes(2));
        assertThat(JwtSettings.parseDuration("250ms", "x")).isEqualTo(Duration.ofMillis(250));
        assertThat(JwtSettings.parseDuration("30s", "x")).isEqualTo(Duration.ofSeconds(30));
        assertThat(JwtSettings.parseDuration(" 5m ", "x")).isEqualTo(Duration.ofMinutes(5));
        assertThat(JwtSettings.parseDuration("1h", "x")).isEqualTo(Duration.ofHours(1));
        assertThat(JwtSettings.parseDuration("0s", "x")).isZero();
    }

    @Test
    void a_bare_number_is_refused_with_a_message_that_asks_for_a_unit() throws IOException {
        assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_CLOCK_SKEW", "30"), SECRET))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_JWT_CLOCK_SKEW: 30' needs a unit")
                .hasMessageContaining("30s");
        JsonNode number = yaml("jwt: {clockSkew: 30}");
        assertThatThrownBy(() -> JwtSettings.parse(number, Map.of(), SECRET))
                .isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("jwt.clockSkew: 30' needs a unit");
    }

    @Test
    void garbled_or_negative_durations_are_refused() {
        for (String bad : new String[] {"30x", "s", "-5s", "thirty seconds", "PT"}) {
            assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_CLOCK_SKEW", bad), SECRET))
                    .as(bad)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("BATON_JWT_CLOCK_SKEW");
        }
        assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_CLOCK_SKEW", "-PT5S"), SECRET))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_JWKS_TIMEOUT", "0s"), SECRET))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("jwksTimeout");
    }

    @Test
    void neither_a_secret_nor_a_jwks_url_is_a_configuration_error() {
        assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of(), null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_JWT_SECRET")
                .hasMessageContaining("BATON_JWT_JWKS_URL");
    }

    @Test
    void the_jwks_url_must_be_an_http_or_https_url() {
        for (String bad : new String[] {"file:///etc/passwd", "jwks.json", "ftp://idp.example/jwks", "http://"}) {
            assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_JWKS_URL", bad), null))
                    .as(bad)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("BATON_JWT_JWKS_URL");
        }
    }

    @Test
    void a_tenant_claim_without_a_jwks_url_is_refused_because_hs256_tokens_always_use_tenant() {
        assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_TENANT_CLAIM", "org"), SECRET))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("JWKS tokens only");
    }

    @Test
    void a_jwt_section_that_is_not_a_mapping_is_refused() throws IOException {
        JsonNode scalar = yaml("jwt: https://idp.example.org/jwks.json");
        assertThatThrownBy(() -> JwtSettings.parse(scalar, Map.of(), SECRET))
                .isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("mapping");
    }

    @Test
    void the_mcp_resource_comes_from_the_section_or_the_environment_and_becomes_mcps_audience() throws IOException {
        JwtSettings fromYaml = JwtSettings.parse(yaml("""
                        jwt:
                          audience: baton
                          mcpResource: https://baton.example.org/mcp
                        """), Map.of(), SECRET);
        assertThat(fromYaml.mcpResource()).isEqualTo(URI.create("https://baton.example.org/mcp"));
        assertThat(fromYaml.mcpAudience()).isEqualTo("https://baton.example.org/mcp");

        JwtSettings fromEnv = JwtSettings.parse(
                yaml("jwt:\n  mcpResource: https://baton.example.org/mcp\n"),
                Map.of("BATON_JWT_MCP_RESOURCE", "https://mcp.example.org/mcp"),
                SECRET);
        assertThat(fromEnv.mcpResource()).isEqualTo(URI.create("https://mcp.example.org/mcp"));

        JwtSettings none = JwtSettings.parse(yaml("jwt:\n  audience: baton\n"), Map.of(), SECRET);
        assertThat(none.mcpResource()).isNull();
        assertThat(none.mcpAudience()).isEqualTo("baton");
    }

    @Test
    void an_mcp_resource_that_is_not_an_http_url_without_query_or_fragment_is_refused() {
        for (String bad : List.of(
                "baton",
                "urn:baton:mcp",
                "ftp://baton.example.org/mcp",
                "https://baton.example.org/mcp#x",
                "https://baton.example.org/mcp?agent=a",
                "https://exa mple/mcp")) {
            assertThatThrownBy(() -> JwtSettings.parse(NONE, Map.of("BATON_JWT_MCP_RESOURCE", bad), SECRET))
                    .as(bad)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("jwt.mcpResource (BATON_JWT_MCP_RESOURCE)");
        }
    }
}
