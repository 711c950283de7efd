package dev.baton.spring.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.auth.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

class AuthoritiesPrincipalConverterTest {
    private final AuthoritiesPrincipalConverter converter = new AuthoritiesPrincipalConverter(
            "org", List.of("SCOPE_"), Map.of("teacher", Set.of("tasks:read:self", "notes:write:self")));

    @Test
    void a_jwt_users_name_claims_and_authorities_become_the_caller() {
        Jwt jwt = Jwt.withTokenValue("t")
                .header("alg", "HS256")
                .subject("alice")
                .claim("org", "riverside")
                .claim("name", "Alice A.")
                .claim("email", "alice@example.org")
                .issuedAt(Instant.now())
                .build();
        var authentication = new JwtAuthenticationToken(
                jwt,
                List.of(
                        new SimpleGrantedAuthority("SCOPE_sessions:write:self"),
                        new SimpleGrantedAuthority("loans:read"),
                        new SimpleGrantedAuthority("ROLE_teacher")));

        Principal caller = converter.convert(authentication);

        assertThat(caller.userId()).isEqualTo("alice");
        assertThat(caller.tenantId()).isEqualTo("riverside");
        assertThat(caller.displayName()).isEqualTo("Alice A.");
        assertThat(caller.email()).isEqualTo("alice@example.org");
        assertThat(caller.roles()).containsExactly("teacher");
        assertThat(caller.permissions())
                .containsExactlyInAnyOrder("sessions:write:self", "loans:read", "tasks:read:self", "notes:write:self");
    }

    @Test
    void a_user_signed_in_without_a_token_is_in_the_default_tenant() {
        var authentication = new UsernamePasswordAuthenticationToken(
                "bob", "n/a", List.of(new SimpleGrantedAuthority("sessions:read:self")));

        Principal caller = converter.convert(authentication);

        assertThat(caller.userId()).isEqualTo("bob");
        assertThat(caller.tenantId()).isEqualTo("default");
        assertThat(caller.permissions()).containsExactly("sessions:read:self");
    }
}
