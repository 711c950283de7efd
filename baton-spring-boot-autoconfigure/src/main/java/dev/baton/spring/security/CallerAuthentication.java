package dev.baton.spring.security;

import dev.baton.core.auth.Principal;
import java.util.ArrayList;
import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * Baton's caller as a Spring Security authentication, while one of the app's tools runs: its name is the user id,
 * its authorities are the caller's permissions and its roles as {@code ROLE_<role>}, and its principal is Baton's
 * {@link Principal}.
 */
public final class CallerAuthentication extends AbstractAuthenticationToken {
    private static final long serialVersionUID = 1L;

    private final transient Principal caller;

    public CallerAuthentication(Principal caller) {
        super(authorities(caller));
        this.caller = caller;
        setAuthenticated(true);
    }

    private static List<GrantedAuthority> authorities(Principal caller) {
        List<GrantedAuthority> authorities = new ArrayList<>();
        caller.permissions().forEach(p -> authorities.add(new SimpleGrantedAuthority(p)));
        caller.roles().forEach(r -> authorities.add(new SimpleGrantedAuthority("ROLE_" + r)));
        return authorities;
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Principal getPrincipal() {
        return caller;
    }

    @Override
    public String getName() {
        return caller.userId();
    }
}
