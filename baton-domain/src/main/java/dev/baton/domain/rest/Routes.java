package dev.baton.domain.rest;

/**
 * Where a {@link RouteGroup} registers its routes. Paths name their parameters in braces ({@code /v1/tasks/{id}}); every
 * route is behind the front door's authentication.
 */
public interface Routes {
    void get(String path, RouteHandler handler);

    void post(String path, RouteHandler handler);

    void patch(String path, RouteHandler handler);

    void put(String path, RouteHandler handler);

    void delete(String path, RouteHandler handler);
}
