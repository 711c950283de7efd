package dev.baton.mcp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.config.Yaml;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code auth: oauth} in baton.yaml: what it reads, and every wrong combination refused naming the key. */
class OAuthSettingsTest {
    static final String CALLBACK = "oauthCallback: https://baton.example.com/oauth/mcp/callback\n";

    static McpSettings parse(String yaml) {
        return McpSettings.parse(Yaml.parse(yaml), Map.of("NOTES_SECRET", "s3cret"));
    }

    @Test
    void a_pre_registered_client_with_its_secret_scopes_and_the_url_as_resource() {
        McpServerSettings notes = parse(CALLBACK + """
                servers:
                  notes:
                    url: https://notes.example.com/mcp
                    state: perUser
                    auth: oauth
                    oauth: { clientId: baton, clientSecret: "${NOTES_SECRET}", scopes: [openid, notes] }
                """).server("notes");

        assertThat(notes.userAccounts()).isTrue();
        assertThat(notes.oauth().clientKind()).isEqualTo(OAuthSettings.ClientKind.PRE_REGISTERED);
        assertThat(notes.oauth().clientSecret()).isEqualTo("s3cret");
        assertThat(notes.oauth().scopes()).containsExactly("openid", "notes");
        assertThat(notes.oauth().resource()).isEqualTo(URI.create("https://notes.example.com/mcp"));
        assertThat(notes.oauth().issuer()).isNull();
        assertThat(notes.oauth().toString()).doesNotContain("s3cret");
    }

    @Test
    void without_a_client_id_a_metadata_document_and_without_either_dynamic_registration() {
        McpSettings settings = parse(CALLBACK + """
                servers:
                  cimd:
                    url: https://a.example.com/mcp
                    state: perUser
                    auth: oauth
                    oauth: { clientMetadataUrl: https://baton.example.com/oauth/client.json, issuer: https://id.example.com }
                  dynamic: { url: https://b.example.com/mcp, state: perUser, auth: oauth }
                """);

        assertThat(settings.server("cimd").oauth().clientKind()).isEqualTo(OAuthSettings.ClientKind.METADATA_DOCUMENT);
        assertThat(settings.server("cimd").oauth().issuer()).isEqualTo(URI.create("https://id.example.com"));
        assertThat(settings.server("dynamic").oauth().clientKind())
                .isEqualTo(OAuthSettings.ClientKind.DYNAMIC_REGISTRATION);
        assertThat(settings.oauthCallback()).isEqualTo(URI.create("https://baton.example.com/oauth/mcp/callback"));
    }

    @Test
    void a_per_user_url_server_with_auth_oauth_needs_no_identity_forwarding() {
        McpServerSettings notes = parse(CALLBACK + "servers: { notes: { url: https://n.example.com/mcp, state: perUser,"
                        + " auth: oauth } }")
                .server("notes");

        assertThat(notes.identity()).isEqualTo(IdentityForwarding.NONE);
    }

    @Test
    void every_wrong_combination_is_refused_naming_the_key() {
        List.of(
                        List.of(
                                "servers: { n: { url: https://n.example.com/mcp, state: perUser, auth: oauth } }",
                                "mcp.oauthCallback"),
                        List.of(
                                CALLBACK
                                        + "servers: { n: { url: https://n.example.com/mcp, state: perUser, auth: basic } }",
                                "mcp.servers.n.auth must be oauth or none"),
                        List.of(
                                CALLBACK + "servers: { n: { url: https://n.example.com/mcp, state: perUser, identity: {"
                                        + " meta: true }, oauth: { clientId: x } } }",
                                "mcp.servers.n.oauth is for auth: oauth"),
                        List.of(
                                CALLBACK + "servers: { n: { command: npx, state: perUser, auth: oauth } }",
                                "mcp.servers.n: auth: oauth is for url servers"),
                        List.of(
                                CALLBACK + "servers: { n: { url: https://n.example.com/mcp, state: shared, sharedWith:"
                                        + " [admin], auth: oauth } }",
                                "state: perUser"),
                        List.of(
                                CALLBACK
                                        + "servers: { n: { url: https://n.example.com/mcp, state: perUser, auth: oauth,"
                                        + " oauth: { clientId: a, clientMetadataUrl: https://b.example.com/c.json } } }",
                                "mcp.servers.n.oauth: set clientId"),
                        List.of(
                                CALLBACK
                                        + "servers: { n: { url: https://n.example.com/mcp, state: perUser, auth: oauth,"
                                        + " oauth: { clientSecret: x } } }",
                                "mcp.servers.n.oauth: clientSecret needs the clientId"),
                        List.of(
                                CALLBACK
                                        + "servers: { n: { url: https://n.example.com/mcp, state: perUser, auth: oauth,"
                                        + " oauth: { clientMetadataUrl: http://b.example.com/c.json } } }",
                                "clientMetadataUrl must be an https URL"),
                        List.of(
                                CALLBACK
                                        + "servers: { n: { url: https://n.example.com/mcp, state: perUser, auth: oauth,"
                                        + " oauth: { scope: [a] } } }",
                                "mcp.servers.n.oauth: unknown key 'scope'"),
                        List.of("oauthCallback: /relative\nservers: {}", "mcp.oauthCallback must be an absolute URL"))
                .forEach(c -> assertThatThrownBy(() -> parse(c.get(0)))
                        .as(c.get(0))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(c.get(1)));
    }
}
