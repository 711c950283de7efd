package dev.baton.mcp.client.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.core.tool.account.AccountToken;
import dev.baton.mcp.config.McpSettings;
import dev.baton.runtime.config.Yaml;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@link UserAccounts} decides before it talks to any authorization server: a callback's state that is missing,
 * changed, expired or another browser's is refused; unknown servers are refused; a user's tokens are theirs only, and
 * tokens that no longer open count as not connected. (The flow against a real provider: baton-server's
 * {@code McpUserAccountsIT}.)
 */
class UserAccountsTest {
    static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");

    final McpSettings settings = McpSettings.parse(Yaml.parse("""
                    oauthCallback: http://127.0.0.1:1/oauth/mcp/callback
                    servers:
                      notes: { url: "http://127.0.0.1:1/mcp", state: perUser, auth: oauth, oauth: { clientId: baton } }
                      plain: { url: "http://127.0.0.1:1/other", state: shared, sharedWith: [admin] }
                    """), Map.of());
    final TokenCipher cipher = TokenCipher.fromBase64(TokenCipher.generateKey(), null);
    final InMemoryAccountTokens store = new InMemoryAccountTokens();

    UserAccounts at(Instant now) {
        return new UserAccounts(settings, store, cipher, Clock.fixed(now, ZoneOffset.UTC));
    }

    String state(String user, String browser, Instant expiresAt) {
        return new PendingAuthorization(
                        "acme",
                        user,
                        "notes",
                        "verifier-verifier-verifier-verifier-verifier-0",
                        PendingAuthorization.hashOf(browser),
                        "baton",
                        expiresAt)
                .seal(cipher);
    }

    static String query(String state) {
        return "code=abc&state=" + URLEncoder.encode(state, StandardCharsets.UTF_8);
    }

    @Test
    void a_callback_without_a_state_or_with_one_baton_did_not_make_is_bad_state() {
        assertThatThrownBy(() -> at(NOW).finish("code=abc", "browser"))
                .isInstanceOfSatisfying(
                        AccountFlowException.class,
                        e -> assertThat(e.kind()).isEqualTo(AccountFlowException.Kind.BAD_STATE));
        String state = state("alice", "browser-value-browser-value-browser-value", NOW.plusSeconds(600));
        String changed = state.substring(0, state.length() - 3) + (state.endsWith("AAA") ? "BBB" : "AAA");
        assertThatThrownBy(() -> at(NOW).finish(query(changed), "browser-value-browser-value-browser-value"))
                .isInstanceOfSatisfying(
                        AccountFlowException.class,
                        e -> assertThat(e.getMessage()).contains("not one Baton made"));
    }

    @Test
    void an_expired_state_is_refused() {
        String browser = "browser-value-browser-value-browser-value";
        String state = state("alice", browser, NOW.plusSeconds(600));

        assertThatThrownBy(() -> at(NOW.plusSeconds(601)).finish(query(state), browser))
                .isInstanceOfSatisfying(AccountFlowException.class, e -> {
                    assertThat(e.kind()).isEqualTo(AccountFlowException.Kind.BAD_STATE);
                    assertThat(e.getMessage()).contains("too long");
                });
    }

    @Test
    void a_state_from_another_browser_or_none_is_refused() {
        String state = state("alice", "alices-browser-alices-browser-alices-browser", NOW.plusSeconds(600));

        for (String browser : new String[] {"bobs-browser-bobs-browser-bobs-browser-bobs", null}) {
            assertThatThrownBy(() -> at(NOW).finish(query(state), browser))
                    .isInstanceOfSatisfying(AccountFlowException.class, e -> {
                        assertThat(e.kind()).isEqualTo(AccountFlowException.Kind.BAD_STATE);
                        assertThat(e.getMessage()).contains("another browser");
                    });
        }
    }

    @Test
    void only_servers_with_auth_oauth_can_be_connected_or_revoked() {
        Principal alice = Principal.of("acme", "alice", java.util.Set.of());

        assertThat(at(NOW).servers()).containsExactly("notes");
        for (String server : new String[] {"plain", "nope"}) {
            assertThatThrownBy(() -> at(NOW).start(alice, server, null))
                    .isInstanceOfSatisfying(
                            AccountFlowException.class,
                            e -> assertThat(e.kind()).isEqualTo(AccountFlowException.Kind.UNKNOWN_SERVER));
            assertThatThrownBy(() -> at(NOW).revoke("acme", "alice", server)).isInstanceOf(AccountFlowException.class);
        }
    }

    @Test
    void a_users_tokens_are_read_by_their_key_only_and_ones_that_do_not_open_count_as_not_connected() {
        AccountTokens alices =
                new AccountTokens("alice-access", "alice-refresh", NOW.plusSeconds(3600), "mcp", "baton");
        store.save(new AccountToken(
                "acme", "alice", "notes", cipher.seal(alices.toJson(), "mcp-account\nacme\nalice\nnotes"), NOW, NOW));
        // bob's row holds a copy of alice's sealed value: it does not open as his
        store.save(new AccountToken(
                "acme",
                "bob",
                "notes",
                store.find("acme", "alice", "notes").orElseThrow().sealed(),
                NOW,
                NOW));

        assertThat(at(NOW).accessToken("acme", "alice", "notes")).contains("alice-access");
        assertThat(at(NOW).accessToken("acme", "bob", "notes")).isEmpty();
        assertThat(at(NOW).accessToken("acme", "carol", "notes")).isEmpty();
        assertThat(at(NOW).connections("acme", "alice"))
                .singleElement()
                .satisfies(c -> assertThat(c.expiresAt()).isEqualTo(NOW.plusSeconds(3600)));
    }
}
