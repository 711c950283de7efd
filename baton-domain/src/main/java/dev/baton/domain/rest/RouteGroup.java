package dev.baton.domain.rest;

/**
 * A domain's REST API, described without an HTTP library: the front door (baton-server) registers each route,
 * authenticates the caller, reads bodies under its input rules and turns the domain's refusals into statuses.
 */
@FunctionalInterface
public interface RouteGroup {
    void register(Routes routes);
}
