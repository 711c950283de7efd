package dev.baton.spring.web;

import dev.baton.core.auth.Principal;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Who is calling Baton's HTTP API: the app's authenticated user as Baton's caller. The starter gives one over Spring
 * Security when it is on the class path, else one over Baton's own JWT settings; an app may give its own bean.
 */
@FunctionalInterface
public interface CallerResolver {

    /**
     * @throws UnauthenticatedException when the request carries no authenticated user (answered 401)
     */
    Principal caller(HttpServletRequest request);
}
