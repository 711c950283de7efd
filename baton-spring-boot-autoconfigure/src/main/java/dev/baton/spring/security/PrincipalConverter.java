package dev.baton.spring.security;

import dev.baton.core.auth.Principal;
import org.springframework.security.core.Authentication;

/**
 * Turns the app's authenticated Spring Security user into Baton's caller. The starter's default is {@link
 * AuthoritiesPrincipalConverter}; declare a bean of this type to map users another way.
 */
@FunctionalInterface
public interface PrincipalConverter {
    Principal convert(Authentication authentication);
}
