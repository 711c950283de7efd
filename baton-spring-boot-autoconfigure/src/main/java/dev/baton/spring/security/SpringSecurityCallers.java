package dev.baton.spring.security;

import dev.baton.core.auth.Principal;
import dev.baton.spring.web.CallerResolver;
import dev.baton.spring.web.UnauthenticatedException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The caller is the request's authenticated Spring Security user, converted by a {@link PrincipalConverter}: the app's
 * own security configuration (a resource server's JWT, a session login) decides who is signed in, and Baton needs no
 * second one.
 */
public record SpringSecurityCallers(PrincipalConverter converter) implements CallerResolver {

    @Override
    public Principal caller(HttpServletRequest request) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null
                || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            throw new UnauthenticatedException("missing bearer token");
        }
        return converter.convert(authentication);
    }
}
