package dev.baton.mcp.client.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenCipherTest {
    private final String key = TokenCipher.generateKey();
    private final TokenCipher cipher = TokenCipher.fromBase64(key, null);

    @Test
    void a_sealed_value_opens_for_what_it_was_bound_to_and_hides_the_plain_text() {
        String sealed = cipher.seal("access-token-123", "alice/notes");

        assertThat(sealed).startsWith("v1.").doesNotContain("access-token-123");
        assertThat(cipher.open(sealed, "alice/notes")).isEqualTo("access-token-123");
    }

    @Test
    void a_value_sealed_for_one_user_does_not_open_as_another_users() {
        String sealed = cipher.seal("access-token-123", "alice/notes");

        assertThatThrownBy(() -> cipher.open(sealed, "bob/notes")).isInstanceOf(TokenCipher.SealBroken.class);
    }

    @Test
    void a_changed_value_does_not_open() {
        String sealed = cipher.seal("access-token-123", "alice/notes");
        char last = sealed.charAt(sealed.length() - 2);
        String changed = sealed.substring(0, sealed.length() - 2)
                + (last == 'A' ? 'B' : 'A')
                + sealed.charAt(sealed.length() - 1);

        assertThatThrownBy(() -> cipher.open(changed, "alice/notes")).isInstanceOf(TokenCipher.SealBroken.class);
        assertThatThrownBy(() -> cipher.open("not sealed", "alice/notes")).isInstanceOf(TokenCipher.SealBroken.class);
    }

    @Test
    void after_rotation_the_previous_key_still_opens_and_the_value_is_known_to_need_sealing_again() {
        String sealedBefore = cipher.seal("refresh-1", "alice/notes");
        TokenCipher rotated = TokenCipher.fromBase64(TokenCipher.generateKey(), key);

        assertThat(rotated.open(sealedBefore, "alice/notes")).isEqualTo("refresh-1");
        assertThat(rotated.sealedWithOldKey(sealedBefore)).isTrue();
        assertThat(rotated.sealedWithOldKey(rotated.seal("x", "y"))).isFalse();
        // a cipher without the old key cannot open it
        TokenCipher other = new TokenCipher(Base64.getDecoder().decode(TokenCipher.generateKey()), List.of());
        assertThatThrownBy(() -> other.open(sealedBefore, "alice/notes")).isInstanceOf(TokenCipher.SealBroken.class);
    }

    @Test
    void a_key_that_is_not_32_bytes_of_base64_is_refused_naming_the_variable() {
        assertThatThrownBy(() -> TokenCipher.fromBase64("c2hvcnQ=", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BATON_TOKEN_KEY");
    }
}
