package dev.baton.spring.security;

import dev.baton.core.auth.Principal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;
import org.springframework.util.ClassUtils;

/**
 * The default {@link PrincipalConverter}: the caller is the authentication's name (a JWT's {@code sub}); its tenant,
 * display name and email are the token's {@code tenantClaim}, {@code name} and {@code email} claims when it is an
 * OAuth2 token (else tenant "default"); each authority {@code ROLE_x} is the role {@code x}, which adds the
 * permissions baton.yaml's {@code roles} grant it; every other authority is a permission, with the first matching
 * prefix of {@code permissionPrefixes} removed ({@code SCOPE_sessions:write} gives {@code sessions:write}).
 */
public final class AuthoritiesPrincipalConverter implements PrincipalConverter {
    private static final String ROLE_PREFIX = "ROLE_";
    private static final boolean OAUTH2_PRESENT = ClassUtils.isPresent(
            "org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken",
            AuthoritiesPrincipalConverter.class.getClassLoader());

    private final String tenantClaim;
    private final List<String> permissionPrefixes;
    private final Map<String, Set<String>> rolePermissions;

    /**
     * @param rolePermissions what each role may do (baton.yaml's {@code roles})
     */
    public AuthoritiesPrincipalConverter(
            String tenantClaim, List<String> permissionPrefixes, Map<String, Set<String>> rolePermissions) {
        this.tenantClaim = tenantClaim;
        this.permissionPrefixes = List.copyOf(permissionPrefixes);
        this.rolePermissions = Map.copyOf(rolePermissions);
    }

    @Override
    public Principal convert(Authentication authentication) {
        Set<String> roles = new LinkedHashSet<>();
        Set<String> permissions = new LinkedHashSet<>();
        for (GrantedAuthority granted : authentication.getAuthorities()) {
            String authority = granted.getAuthority();
            if (authority == null || authority.isBlank()) continue;
            if (authority.startsWith(ROLE_PREFIX)) {
                String role = authority.substring(ROLE_PREFIX.length());
                roles.add(role);
                permissions.addAll(rolePermissions.getOrDefault(role, Set.of()));
            } else {
                permissions.add(withoutPrefix(authority));
            }
        }
        Map<String, Object> claims = claims(authentication);
        return new Principal(
                authentication.getName(),
                text(claims.get(tenantClaim)),
                text(claims.get("name")),
                text(claims.get("email")),
                roles,
                permissions,
                List.of());
    }

    private String withoutPrefix(String authority) {
        for (String prefix : permissionPrefixes) {
            if (!prefix.isEmpty() && authority.startsWith(prefix)) return authority.substring(prefix.length());
        }
        return authority;
    }

    private static Map<String, Object> claims(Authentication authentication) {
        if (OAUTH2_PRESENT && authentication instanceof AbstractOAuth2TokenAuthenticationToken<?> token) {
            return token.getTokenAttributes();
        }
        return Map.of();
    }

    private static String text(Object claim) {
        return claim instanceof String s && !s.isBlank() ? s : null;
    }
}
