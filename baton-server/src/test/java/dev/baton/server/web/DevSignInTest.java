package dev.baton.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jwt.SignedJWT;
import dev.baton.server.auth.JwtSecret;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class DevSignInTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private final DevSignIn on =
            DevSignIn.withGeneratedSecret(JwtSecret.of(JwtSecret.generate()), Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void a_browser_on_the_serving_machine_may_sign_in() {
        assertThat(on.refusal("127.0.0.1", "localhost:8080")).isEmpty();
        assertThat(on.refusal("127.0.0.1", "127.0.0.1:8080")).isEmpty();
        assertThat(on.refusal("0:0:0:0:0:0:0:1", "[::1]:8080")).isEmpty();
        assertThat(on.refusal("::1", "LOCALHOST")).isEmpty();
    }

    @Test
    void another_machine_is_refused_whatever_host_it_names() {
        assertThat(on.refusal("192.168.1.20", "localhost:8080"))
                .hasValueSatisfying(r -> assertThat(r).contains("only in a browser on the machine running Baton"));
        assertThat(on.refusal("10.0.0.5", "127.0.0.1")).isPresent();
        assertThat(on.refusal("", "localhost")).isPresent();
        assertThat(on.refusal(null, "localhost")).isPresent();
    }

    @Test
    void a_page_whose_name_was_rebound_to_loopback_is_refused() {
        assertThat(on.refusal("127.0.0.1", "attacker.example:8080")).isPresent();
        assertThat(on.refusal("127.0.0.1", "localhost.attacker.example")).isPresent();
        assertThat(on.refusal("127.0.0.1", "[::2]:8080")).isPresent();
        assertThat(on.refusal("127.0.0.1", null)).isPresent();
    }

    @Test
    void a_server_with_a_configured_secret_offers_nothing_and_mints_nothing() {
        DevSignIn off = DevSignIn.off();

        assertThat(off.offered()).isFalse();
        assertThat(off.refusal("127.0.0.1", "localhost"))
                .hasValueSatisfying(r -> assertThat(r).contains("configured secret or identity provider"));
        assertThatThrownBy(off::mint).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void the_token_is_for_the_development_user_with_its_roles_for_twelve_hours() throws Exception {
        DevSignIn.Token token = on.mint();

        var claims = SignedJWT.parse(token.jwt()).getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("demo");
        assertThat(claims.getStringListClaim("roles")).containsExactly("student", "admin");
        assertThat(claims.getExpirationTime().toInstant()).isEqualTo(NOW.plusSeconds(12 * 3600));
        assertThat(token.expiresAt()).isEqualTo(NOW.plusSeconds(12 * 3600));
    }
}
