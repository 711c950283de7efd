package dev.baton.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.mcp.client.oauth.TokenCipher;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestStateKeyTest {
    @Test
    void instances_sharing_the_token_key_seal_with_one_key_which_is_not_the_token_key() {
        String tokenKey = TokenCipher.generateKey();

        byte[] one = RequestStateKey.from(Map.of("BATON_TOKEN_KEY", tokenKey));
        byte[] other = RequestStateKey.from(Map.of("BATON_TOKEN_KEY", tokenKey));

        assertThat(one)
                .hasSize(32)
                .isEqualTo(other)
                .isNotEqualTo(Base64.getDecoder().decode(tokenKey));
        assertThat(RequestStateKey.from(Map.of("BATON_TOKEN_KEY", TokenCipher.generateKey())))
                .isNotEqualTo(one);
    }

    @Test
    void without_the_token_key_each_process_has_its_own() {
        assertThat(RequestStateKey.from(Map.of())).hasSize(32).isNotEqualTo(RequestStateKey.from(Map.of()));
    }

    @Test
    void a_token_key_that_is_not_base64_is_a_clear_error() {
        assertThatThrownBy(() -> RequestStateKey.from(Map.of("BATON_TOKEN_KEY", "not base64!")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BATON_TOKEN_KEY must be base64");
    }
}
